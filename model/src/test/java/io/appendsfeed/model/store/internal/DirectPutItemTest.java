package io.appendsfeed.model.store.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.Capacity;
import io.appendsfeed.model.store.CapacityMeter;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreTables;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * The direct {@code PutItem} against DynamoDB Local (what it writes, what it costs, what it leaves to
 * the SDK), and against a stand-in HTTP server for the answers DynamoDB Local never gives (a bad
 * signature, throttling, a damaged response).
 */
@ExtendWith(LocalDynamoExtension.class)
class DirectPutItemTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** An item with every kind of attribute value DynamoDB has. */
    private static Map<String, AttributeValue> everyKind(String p, long i) {
        return Map.ofEntries(
                Map.entry("p", AttributeValue.fromS(p)),
                Map.entry("i", AttributeValue.fromN(Long.toString(i))),
                Map.entry("s", AttributeValue.fromS("\"quoted\" \\ \u00e9\u4e2d\ud83d\ude00 \n\t")),
                Map.entry("n", AttributeValue.fromN("-12.5")),
                Map.entry("b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {0, 1, -1, 127, -128, 42}))),
                Map.entry("t", AttributeValue.fromBool(true)),
                Map.entry("z", AttributeValue.fromNul(true)),
                Map.entry("m", AttributeValue.fromM(Map.of("k", AttributeValue.fromS("v"), "e", AttributeValue.fromM(Map.of())))),
                Map.entry("l", AttributeValue.fromL(List.of(AttributeValue.fromN("1"), AttributeValue.fromS("two"),
                        AttributeValue.fromL(List.of())))),
                Map.entry("ss", AttributeValue.fromSs(List.of("a", "b"))),
                Map.entry("ns", AttributeValue.fromNs(List.of("1", "2.5"))),
                Map.entry("bs", AttributeValue.fromBs(List.of(SdkBytes.fromByteArray(new byte[] {1}),
                        SdkBytes.fromByteArray(new byte[] {2, 3})))));
    }

    private static PutItemRequest conditional(String table, Map<String, AttributeValue> item) {
        return PutItemRequest.builder().tableName(table).item(item)
                .conditionExpression("attribute_not_exists(#p) OR #n <> :n")
                .expressionAttributeNames(Map.of("#p", "p", "#n", "n"))
                .expressionAttributeValues(Map.of(":n", AttributeValue.fromN("7")))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
    }

    private static String table(LocalDynamo local) {
        String table = local.freshTableName("direct");
        StoreTables.ensure(local.dynamo(), table, StreamViewType.NEW_IMAGE);
        return table;
    }

    @Test
    void it_writes_the_body_the_sdk_writes_for_the_same_request(LocalDynamo local) throws IOException {
        AtomicReference<byte[]> sdkBody = new AtomicReference<>();
        ExecutionInterceptor capture = new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                context.requestBody().ifPresent(b -> {
                    try (InputStream in = b.contentStreamProvider().newStream()) {
                        sdkBody.set(in.readAllBytes());
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                });
            }
        };
        String table = table(local);
        PutItemRequest request = conditional(table, everyKind("s-1", 0));
        try (DynamoDbClient sdk = DynamoDbClient.builder().endpointOverride(local.endpoint()).region(DynamoClients.LOCAL_REGION)
                .credentialsProvider(DynamoClients.LOCAL_CREDENTIALS)
                .overrideConfiguration(c -> c.addExecutionInterceptor(capture)).build()) {
            sdk.putItem(request);
        }

        assertThat(JSON.readTree(DirectPutItem.body(request))).isEqualTo(JSON.readTree(sdkBody.get()));
    }

    @Test
    void a_put_lands_as_written_and_costs_what_the_sdks_costs(LocalDynamo local) {
        String table = table(local);
        DirectPutItem direct = DirectPutItem.of(local.dynamo());
        assertThat(direct).as("the SDK's own client, as DynamoClients builds it").isNotNull();

        PutItemResponse viaSdk = local.dynamo().putItem(conditional(table, everyKind("sdk", 0)));
        PutItemResponse viaDirect = direct.putItem(conditional(table, everyKind("dir", 0)));

        assertThat(viaDirect).isNotNull();
        assertThat(viaDirect.consumedCapacity().capacityUnits()).isEqualTo(viaSdk.consumedCapacity().capacityUnits())
                .isGreaterThan(0);
        assertThat(viaDirect.consumedCapacity().tableName()).isEqualTo(table);
        var got = local.dynamo().getItem(b -> b.tableName(table).consistentRead(true)
                .key(Map.of("p", AttributeValue.fromS("dir"), "i", AttributeValue.fromN("0")))).item();
        assertThat(got).isEqualTo(everyKind("dir", 0));
        direct.close();
    }

    @Test
    void a_failed_condition_is_the_sdks_exception_and_a_request_it_cannot_write_exactly_is_left_to_the_sdk(LocalDynamo local) {
        String table = table(local);
        DirectPutItem direct = DirectPutItem.of(local.dynamo());
        Map<String, AttributeValue> first = Map.of("p", AttributeValue.fromS("x"), "i", AttributeValue.fromN("0"),
                "v", AttributeValue.fromS("first"));
        PutItemRequest.Builder once = PutItemRequest.builder().tableName(table).conditionExpression("attribute_not_exists(p)");
        assertThat(direct.putItem(once.item(first).build())).isNotNull();

        Map<String, AttributeValue> second = Map.of("p", AttributeValue.fromS("x"), "i", AttributeValue.fromN("0"),
                "v", AttributeValue.fromS("second"));
        // as the SDK throws it, not resent through the SDK to be refused (and charged) a second time
        assertThatThrownBy(() -> direct.putItem(once.item(second).build()))
                .isInstanceOfSatisfying(ConditionalCheckFailedException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ConditionalCheckFailedException");
                    assertThat(e.hasItem()).as("not asked for").isFalse();
                });
        assertThat(direct.enabled()).as("a failed condition blames the request, not the path").isTrue();
        assertThat(direct.putItem(PutItemRequest.builder().tableName(table).item(second).returnValues(ReturnValue.ALL_OLD).build()))
                .as("ReturnValues is not a field it writes").isNull();
        var got = local.dynamo().getItem(b -> b.tableName(table).consistentRead(true)
                .key(Map.of("p", AttributeValue.fromS("x"), "i", AttributeValue.fromN("0")))).item();
        assertThat(got.get("v").s()).isEqualTo("first");
        direct.close();
    }

    @Test
    void a_refusal_asked_for_the_item_returns_it_whole_with_every_kind_of_value(LocalDynamo local) {
        String table = table(local);
        DirectPutItem direct = DirectPutItem.of(local.dynamo());
        local.dynamo().putItem(conditional(table, everyKind("held", 0)));

        PutItemRequest again = PutItemRequest.builder().tableName(table).item(everyKind("held", 0))
                .conditionExpression("attribute_not_exists(#p)").expressionAttributeNames(Map.of("#p", "p"))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
        ConditionalCheckFailedException viaSdk = org.assertj.core.api.Assertions.catchThrowableOfType(
                () -> local.dynamo().putItem(again), ConditionalCheckFailedException.class);
        ConditionalCheckFailedException viaDirect = org.assertj.core.api.Assertions.catchThrowableOfType(
                () -> direct.putItem(again), ConditionalCheckFailedException.class);

        assertThat(viaSdk.item()).isEqualTo(everyKind("held", 0));
        assertThat(viaDirect).isNotNull();
        assertThat(viaDirect.item()).isEqualTo(viaSdk.item());
        direct.close();
    }

    @Test
    void only_a_failed_condition_is_read_as_one() {
        assertThat(DirectPutItem.conditionFailed(400, ("{\"__type\":\"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException\","
                + "\"message\":\"The conditional request failed\"}").getBytes(StandardCharsets.UTF_8)))
                .isNotNull().hasMessageContaining("The conditional request failed");
        assertThat(DirectPutItem.conditionFailed(400, ("{\"__type\":\"com.amazonaws.dynamodb.v20120810#ValidationException\","
                + "\"message\":\"One or more parameter values were invalid\"}").getBytes(StandardCharsets.UTF_8)))
                .as("left to the SDK, which says what is wrong").isNull();
        assertThat(DirectPutItem.conditionFailed(500, "{\"__type\":\"x#ConditionalCheckFailedException\"}".getBytes(StandardCharsets.UTF_8)))
                .isNull();
        assertThat(DirectPutItem.conditionFailed(400, ("{\"__type\":\"x#ConditionalCheckFailedException\",\"Item\":{\"p\":{\"Q\":\"?\"}}}")
                .getBytes(StandardCharsets.UTF_8))).as("an item it cannot read whole: left to the SDK").isNull();
        assertThat(DirectPutItem.conditionFailed(400, "not json".getBytes(StandardCharsets.UTF_8))).isNull();
    }

    @Test
    void a_store_client_writes_calves_directly_and_its_meter_hears_of_refused_writes(LocalDynamo local) {
        String table = table(local);
        List<String> refused = new CopyOnWriteArrayList<>();
        List<Capacity> puts = new CopyOnWriteArrayList<>();
        CapacityMeter meter = new CapacityMeter() {
            @Override
            public void consumed(String operation, String t, Capacity capacity) {
                if (operation.equals("PutItem")) {
                    puts.add(capacity);
                }
            }

            @Override
            public void refused(String operation, String t) {
                refused.add(operation + " " + t);
            }
        };
        StreamName stream = StreamName.parse("$AppendsEpoch-0_0");
        StoreClient direct = new StoreClient(local.dynamo(), StoreConfig.builder(table).reservedStreams(true).meter(meter).build());
        StoreClient viaSdk = new StoreClient(local.dynamo(), StoreConfig.builder(table).reservedStreams(true).directPuts(false)
                .meter(meter).build());

        // the Tip left behind (as the indexer does while records wait), so that the second writer races for the calf's key
        assertThat(direct.appendAsCalf(stream, 0, List.of(EventData.json("A", "{\"k\":1}"))))
                .isInstanceOf(AppendResult.Written.class);
        AppendResult lost = viaSdk.appendAsCalf(stream, 0, List.of(EventData.json("B", "{\"k\":2}")));

        assertThat(lost).isInstanceOf(AppendResult.Conflict.class);
        assertThat(refused).containsExactly("PutItem " + table);
        assertThat(puts).hasSize(1);
        assertThat(puts.get(0).writeUnits()).isGreaterThan(0);
        assertThat(direct.readAll(stream, io.appendsfeed.model.store.Read.forward(0)))
                .extracting(io.appendsfeed.model.store.StoredEvent::type).containsExactly("A");
    }

    @Test
    void a_wrapped_client_or_one_with_its_users_interceptors_keeps_every_call(LocalDynamo local) {
        DynamoDbClient wrapped = new DynamoDbClient() {
            @Override
            public String serviceName() {
                return "dynamodb";
            }

            @Override
            public void close() {
            }

            @Override
            public PutItemResponse putItem(PutItemRequest r) {
                return local.dynamo().putItem(r);
            }
        };
        assertThat(DirectPutItem.of(wrapped)).isNull();
        try (DynamoDbClient traced = DynamoDbClient.builder().endpointOverride(local.endpoint()).region(DynamoClients.LOCAL_REGION)
                .credentialsProvider(DynamoClients.LOCAL_CREDENTIALS)
                .overrideConfiguration(c -> c.addExecutionInterceptor(new ExecutionInterceptor() { })).build()) {
            assertThat(DirectPutItem.of(traced)).isNull();
        }
    }

    /** A stand-in for DynamoDB that answers every call with the next of {@code answers} and keeps the requests' headers. */
    private record StandIn(HttpServer server, List<Map<String, List<String>>> headers) implements AutoCloseable {
        static StandIn answering(List<Answer> answers) throws IOException {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            List<Map<String, List<String>>> headers = new CopyOnWriteArrayList<>();
            List<Answer> left = new ArrayList<>(answers);
            server.createContext("/", exchange -> {
                headers.add(Map.copyOf(exchange.getRequestHeaders()));
                exchange.getRequestBody().readAllBytes();
                Answer a = left.remove(0);
                byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("x-amz-crc32", a.crc() != null ? a.crc() : Long.toString(crc32(body)));
                exchange.sendResponseHeaders(a.status(), body.length);
                try (OutputStream o = exchange.getResponseBody()) {
                    o.write(body);
                }
            });
            server.start();
            return new StandIn(server, headers);
        }

        URI endpoint() {
            return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    private record Answer(int status, String body, String crc) {
        static Answer of(int status, String body) {
            return new Answer(status, body, null);
        }
    }

    private static long crc32(byte[] b) {
        CRC32 c = new CRC32();
        c.update(b);
        return c.getValue();
    }

    private static PutItemRequest simple() {
        return PutItemRequest.builder().tableName("t").item(Map.of("p", AttributeValue.fromS("x"), "i", AttributeValue.fromN("0")))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
    }

    @Test
    void only_an_error_that_blames_the_path_turns_it_off_and_a_damaged_answer_is_not_taken() throws IOException {
        String ok = "{\"ConsumedCapacity\":{\"CapacityUnits\":2.0,\"TableName\":\"t\"}}";
        try (StandIn dynamo = StandIn.answering(List.of(
                Answer.of(400, "{\"__type\":\"com.amazonaws.dynamodb.v20120810#ThrottlingException\",\"message\":\"slow down\"}"),
                Answer.of(500, "{\"__type\":\"com.amazonaws.dynamodb.v20120810#InternalServerError\"}"),
                new Answer(200, ok, "12345"),
                Answer.of(200, ok),
                Answer.of(400, "{\"__type\":\"com.amazon.coral.service#InvalidSignatureException\",\"message\":\"no\"}")))) {
            DirectPutItem direct = new DirectPutItem(dynamo.endpoint(), Region.EU_WEST_1, DynamoClients.LOCAL_CREDENTIALS,
                    Duration.ofSeconds(5));

            assertThat(direct.putItem(simple())).as("throttled").isNull();
            assertThat(direct.putItem(simple())).as("a server error").isNull();
            assertThat(direct.enabled()).isTrue();
            assertThat(direct.putItem(simple())).as("a response whose checksum does not match").isNull();
            PutItemResponse taken = direct.putItem(simple());
            assertThat(taken.consumedCapacity().capacityUnits()).isEqualTo(2.0);
            assertThat(direct.enabled()).isTrue();
            assertThat(direct.putItem(simple())).as("a bad signature").isNull();
            assertThat(direct.enabled()).isFalse();
            assertThat(direct.putItem(simple())).as("off: nothing sent").isNull();
            assertThat(dynamo.headers()).hasSize(5);

            Map<String, List<String>> h = dynamo.headers().get(3);
            assertThat(h.get("X-amz-target")).containsExactly("DynamoDB_20120810.PutItem");
            assertThat(h.get("Content-type")).containsExactly("application/x-amz-json-1.0");
            assertThat(h.get("Authorization").get(0))
                    .startsWith("AWS4-HMAC-SHA256 Credential=local/")
                    .contains("/eu-west-1/dynamodb/aws4_request")
                    .containsPattern("SignedHeaders=[^,]*host[^,]*x-amz-date[^,]*x-amz-target");
            direct.close();
        }
    }

    @Test
    void calls_that_get_no_answer_three_times_in_a_row_turn_it_off() throws IOException {
        int port;
        try (java.net.ServerSocket closed = new java.net.ServerSocket(0)) {
            port = closed.getLocalPort(); // nothing listens there once closed: every connection is refused
        }
        DirectPutItem direct = new DirectPutItem(URI.create("http://127.0.0.1:" + port), Region.US_EAST_1,
                DynamoClients.LOCAL_CREDENTIALS, Duration.ofSeconds(5));
        for (int k = 1; k < DirectPutItem.MAX_FAILURES_IN_A_ROW; k++) {
            assertThat(direct.putItem(simple())).isNull();
            assertThat(direct.enabled()).as("after %d failures", k).isTrue();
        }
        assertThat(direct.putItem(simple())).isNull();
        assertThat(direct.enabled()).isFalse();
        direct.close();
    }

    @Test
    void without_an_override_the_regions_endpoint_is_resolved_on_first_use_by_the_sdks_provider() {
        DirectPutItem direct = new DirectPutItem(null, Region.EU_WEST_1, DynamoClients.LOCAL_CREDENTIALS, Duration.ofSeconds(5));

        assertThat(direct.endpoint()).isEqualTo(URI.create("https://dynamodb.eu-west-1.amazonaws.com"));
        assertThat(direct.endpoint()).as("kept").isSameAs(direct.endpoint());
        direct.close();
    }
}
