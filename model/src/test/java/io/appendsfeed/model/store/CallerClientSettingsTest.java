package io.appendsfeed.model.store;

import static io.appendsfeed.model.store.StoreFixture.events;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.CapacityMeter.Capacity;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.SdkAdvancedClientOption;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The store client makes every DynamoDB call through the {@link DynamoDbClient} its caller built, so
 * that the caller's settings hold for each: its interceptors, its User-Agent, its endpoint rules (FIPS).
 */
@ExtendWith(LocalDynamoExtension.class)
class CallerClientSettingsTest {

    private static final StreamName EPOCH = StreamName.parse("$AppendsEpoch-0_0");
    private static final StreamName ORDER = StreamName.parse("Order-1");
    private static final String USER_AGENT = "orders-service/1.4";
    private static final String FIPS_HOST = "dynamodb-fips.us-east-1.amazonaws.com";

    /** One call as the SDK prepared it: operation, host, User-Agent (null where not looked at). */
    record Sent(String operation, String host, String userAgent) {}

    /** Records each call just before the SDK sends it (signed, headers final); optionally aborts it. */
    static final class Recorder implements ExecutionInterceptor {
        final List<Sent> sent = new CopyOnWriteArrayList<>();
        private final boolean abort;

        Recorder(boolean abort) {
            this.abort = abort;
        }

        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            sent.add(new Sent(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME), context.httpRequest().host(),
                    context.httpRequest().firstMatchingHeader("User-Agent").orElse(null)));
            if (abort) {
                throw new Aborted();
            }
        }
    }

    /**
     * Records the host the SDK resolved for each call, then sends the call to DynamoDB Local instead
     * (standing in for the FIPS endpoint, which this machine cannot reach), so that a whole append
     * path runs. Aborts any call that would leave for anywhere else.
     */
    static final class ToLocal implements ExecutionInterceptor {
        final List<Sent> resolved = new CopyOnWriteArrayList<>();
        private final URI local;

        ToLocal(URI local) {
            this.local = local;
        }

        @Override
        public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
            SdkHttpRequest r = context.httpRequest();
            resolved.add(new Sent(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME), r.host(), null));
            return r.toBuilder().protocol(local.getScheme()).host(local.getHost()).port(local.getPort()).build();
        }

        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            if (!context.httpRequest().host().equals(local.getHost())) {
                throw new Aborted();
            }
        }
    }

    /** Thrown by an interceptor so that a call is never sent. */
    static final class Aborted extends RuntimeException {
        Aborted() {
            super("aborted before transmission by the test's interceptor");
        }
    }

    /** The operations the store client made, as its meter is told of them (refused writes included). */
    static final class Calls implements CapacityMeter {
        final List<String> operations = new CopyOnWriteArrayList<>();

        @Override
        public void consumed(String operation, String table, Capacity capacity) {
            operations.add(operation);
        }

        @Override
        public void refused(String operation, String table) {
            operations.add(operation);
        }
    }

    /**
     * The epoch writes' path, as the indexer takes it: calves (the Tip read first, then known), a rival's calf
     * refused, the Tip moved by its writer, and a read forwards.
     */
    private static void appendAsCalves(StoreClient client, StoreClient rival) {
        assertThat(client.appendAsCalf(EPOCH, 0, events("A", 2))).isInstanceOf(AppendResult.Written.class);
        assertThat(client.appendAsCalf(EPOCH, 2, events("B", 1))).isInstanceOf(AppendResult.Written.class);
        assertThat(rival.appendAsCalf(EPOCH, 0, events("C", 1))).isInstanceOf(AppendResult.Conflict.class);
        client.ensureTip(EPOCH, 3);
        assertThat(client.readAll(EPOCH, Read.forward(0))).hasSize(3);
    }

    @Test
    void an_interceptor_on_the_callers_client_sees_every_call_with_the_callers_user_agent(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        Recorder recorder = new Recorder(false);
        Calls calls = new Calls();
        try (DynamoDbClient dynamo = DynamoDbClient.builder()
                .endpointOverride(local.endpoint())
                .region(DynamoClients.LOCAL_REGION)
                .credentialsProvider(DynamoClients.LOCAL_CREDENTIALS)
                .httpClientBuilder(ApacheHttpClient.builder())
                .overrideConfiguration(c -> c.addExecutionInterceptor(recorder)
                        .putAdvancedOption(SdkAdvancedClientOption.USER_AGENT_SUFFIX, USER_AGENT))
                .build()) {
            StoreConfig config = StoreConfig.builder(f.table).reservedStreams(true).tipMaxEvents(3).meter(calls).build();
            StoreClient client = new StoreClient(dynamo, config);
            StoreClient rival = new StoreClient(dynamo, config);

            appendAsCalves(client, rival);
            // Tip-first: a new stream, an append that calves (past tipMaxEvents), a read of the Tip
            assertThat(client.append(ORDER, Expected.version(0), events("D", 2))).isInstanceOf(AppendResult.Written.class);
            assertThat(client.append(ORDER, Expected.version(2), events("E", 2))).isInstanceOf(AppendResult.Written.class);
            assertThat(rival.readTip(ORDER, true).orElseThrow().version()).isEqualTo(4);
        }

        assertThat(recorder.sent).extracting(Sent::operation)
                .contains("GetItem", "PutItem", "UpdateItem", "Query", "TransactWriteItems")
                // every call the store client made went through the caller's client, in order
                .isEqualTo(calls.operations);
        assertThat(recorder.sent).allSatisfy(s -> assertThat(s.userAgent()).contains(USER_AGENT).contains("aws-sdk-java/"));
    }

    @Test
    void a_fips_client_resolves_only_fips_endpoints_for_every_call() {
        Recorder recorder = new Recorder(true);
        try (DynamoDbClient dynamo = DynamoDbClient.builder()
                .fipsEnabled(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE", "secret")))
                .httpClientBuilder(ApacheHttpClient.builder())
                .overrideConfiguration(c -> c.addExecutionInterceptor(recorder))
                .build()) {
            StoreClient client = new StoreClient(dynamo, StoreConfig.builder("index").reservedStreams(true).build());
            StoreClient fresh = new StoreClient(dynamo, StoreConfig.builder("index").reservedStreams(true).build());

            // each call is aborted, so each entry point gets as far as its first call
            assertThatThrownBy(() -> fresh.append(ORDER, Expected.noStream(), events("A", 1))).isInstanceOf(Aborted.class);
            assertThatThrownBy(() -> client.appendAsCalf(EPOCH, 5, events("A", 1))).isInstanceOf(Aborted.class);
            assertThatThrownBy(() -> client.readAll(EPOCH, Read.forward(0))).isInstanceOf(Aborted.class);
            assertThatThrownBy(() -> client.append(ORDER, Expected.any(), events("B", 1))).isInstanceOf(Aborted.class);
            assertThatThrownBy(() -> client.readTip(ORDER, false)).isInstanceOf(Aborted.class);
        }

        // one attempt per call (an aborted call is not retried), each to the FIPS endpoint
        assertThat(recorder.sent).extracting(Sent::operation).containsExactly("PutItem", "GetItem", "Query", "GetItem", "GetItem");
        assertThat(recorder.sent).extracting(Sent::host).containsOnly(FIPS_HOST);
    }

    @Test
    void a_fips_client_resolves_every_call_of_the_calf_path_to_the_fips_endpoint(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        ToLocal toLocal = new ToLocal(local.endpoint());
        Calls calls = new Calls();
        try (DynamoDbClient dynamo = DynamoDbClient.builder()
                .fipsEnabled(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(DynamoClients.LOCAL_CREDENTIALS)
                .httpClientBuilder(ApacheHttpClient.builder())
                .overrideConfiguration(c -> c.addExecutionInterceptor(toLocal))
                .build()) {
            StoreConfig config = StoreConfig.builder(f.table).reservedStreams(true).meter(calls).build();
            appendAsCalves(new StoreClient(dynamo, config), new StoreClient(dynamo, config));
        }

        // the calves landed (read back through the test's own client), and every call was resolved to the FIPS endpoint
        assertThat(f.items(EPOCH)).hasSize(3);
        assertThat(toLocal.resolved).extracting(Sent::operation)
                .contains("PutItem", "UpdateItem", "Query")
                .isEqualTo(calls.operations);
        assertThat(toLocal.resolved).extracting(Sent::host).containsOnly(FIPS_HOST);
    }
}
