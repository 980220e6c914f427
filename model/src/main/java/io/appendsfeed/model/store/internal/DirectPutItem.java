package io.appendsfeed.model.store.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.appendsfeed.model.store.DynamoJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.IdentityProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.endpoints.DynamoDbEndpointParams;
import software.amazon.awssdk.services.dynamodb.endpoints.DynamoDbEndpointProvider;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;

/**
 * The one {@code PutItem} on the indexer's hot path, sent without the SDK's request pipeline: the
 * body written with Jackson, signed with the SDK's own SigV4 signer, sent with the SDK's Apache HTTP
 * client. Profiled on Lambda batches of 100 records, the pipeline around that one call (interceptors,
 * endpoint rules, marshalling through the generic protocol layer, metrics stages) was about half of
 * the handler's CPU; this path does what the call needs and nothing else (see samples/BENCHMARKS.md,
 * "Indexer profile", fourth round).
 *
 * <p>It is a shortcut, never a second source of truth. A failed condition is an answer, as the SDK
 * gives it: a {@link ConditionalCheckFailedException}, with the item that refused the write when the
 * request asked for it ({@code ReturnValuesOnConditionCheckFailure}). Sending that request again
 * through the SDK would only be refused again, and DynamoDB charges every refused write: under
 * contention that doubled the cost of each conflict. Anything else but a 200 with a matching checksum
 * (throttling, a validation error, a network error, a bad signature) returns null, and the caller
 * sends the same request through the SDK client, which retries, throws its typed exceptions and
 * reports what is wrong. Resending is what the SDK's own retry would do after
 * such a failure; a conditional put whose first try landed fails its condition the second time, as
 * it would after an SDK retry. A response that says the request itself was refused (4xx other than a
 * failed condition or throttling: credentials, signature, validation) turns the shortcut off for good,
 * with one warning, so that a configuration it does not handle costs one extra call, not one per write.
 *
 * <p>Only requests it can write exactly are taken: an item, an optional condition expression with its
 * names and values, {@code ReturnValuesOnConditionCheckFailure} and {@code ReturnConsumedCapacity}; any
 * other field sends the request through the SDK.
 */
public final class DirectPutItem implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DirectPutItem.class);
    private static final JsonFactory JSON = new JsonFactory();
    private static final String TARGET = "DynamoDB_20120810.PutItem";
    private static final String CONTENT_TYPE = "application/x-amz-json-1.0";

    private final Duration timeout;
    /** Made on the first call: a store client that never puts (the store table's, in the indexer) costs nothing. */
    private volatile SdkHttpClient http;
    /** The endpoint override, or the region's endpoint once resolved; null until the first call without an override. */
    private volatile URI endpoint;
    private final Region region;
    private final IdentityProvider<? extends AwsCredentialsIdentity> credentials;
    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();
    private volatile boolean enabled = true;
    /**
     * Calls in a row that did not get an answer (a network error, a timeout): the SDK's client may reach
     * DynamoDB where this path cannot (a proxy of its user's), so a few of them turn the shortcut off.
     */
    private final java.util.concurrent.atomic.AtomicInteger failures = new java.util.concurrent.atomic.AtomicInteger();
    static final int MAX_FAILURES_IN_A_ROW = 3;
    /** The Apache client's connection timeout as the SDK sets it by default: a path that cannot connect is found out fast. */
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

    /** @param endpoint the endpoint, or null for the region's, resolved on the first call */
    DirectPutItem(URI endpoint, Region region, IdentityProvider<? extends AwsCredentialsIdentity> credentials, Duration timeout) {
        this.endpoint = endpoint;
        this.region = region;
        this.credentials = credentials;
        this.timeout = timeout;
    }

    /**
     * The shortcut for the calls {@code dynamo} makes, or null when it cannot stand in for it: a client
     * that is not the SDK's own (a wrapper that meters, traces or fakes calls keeps every call), one with
     * interceptors or metric publishers of its user (tracing, metrics), or one whose region, credentials
     * or endpoint it cannot read.
     */
    public static DirectPutItem of(DynamoDbClient dynamo) {
        if (!dynamo.getClass().getName().equals("software.amazon.awssdk.services.dynamodb.DefaultDynamoDbClient")) {
            return null;
        }
        try {
            var c = dynamo.serviceClientConfiguration();
            if (c.region() == null || c.credentialsProvider() == null) {
                return null;
            }
            if (c.overrideConfiguration().executionInterceptors().stream()
                    .anyMatch(i -> !i.getClass().getName().startsWith("software.amazon.awssdk."))
                    || !c.overrideConfiguration().metricPublishers().isEmpty()) {
                return null; // someone watches or changes the calls (tracing, metrics): leave every call to the SDK
            }
            URI endpoint = c.endpointOverride().orElse(null);
            if (endpoint == null && (setting("AWS_USE_FIPS_ENDPOINT", "aws.useFipsEndpoint")
                    || setting("AWS_USE_DUALSTACK_ENDPOINT", "aws.useDualstackEndpoint"))) {
                return null; // a FIPS or dual-stack endpoint: resolved by the SDK, call by call
            }
            Duration timeout = c.overrideConfiguration().apiCallAttemptTimeout().orElse(Duration.ofSeconds(10));
            return new DirectPutItem(endpoint, c.region(), c.credentialsProvider(), timeout);
        } catch (RuntimeException | LinkageError e) {
            log.debug("PutItem goes through the SDK: {}", e.toString());
            return null;
        }
    }

    /** Whether the SDK's environment variable or system property of that name is set to true. */
    private static boolean setting(String env, String property) {
        String v = System.getProperty(property, System.getenv(env));
        return v != null && v.trim().equalsIgnoreCase("true");
    }

    /** Whether {@link #putItem} can take this request (see the class comment). */
    static boolean takes(PutItemRequest r) {
        return r.hasItem() && r.tableName() != null && r.returnValues() == null && r.returnItemCollectionMetrics() == null
                && !r.hasExpected() && r.conditionalOperator() == null;
    }

    /**
     * @return the response, or null when the request was not taken or did not succeed: then send it
     *         through the SDK (see the class comment)
     * @throws ConditionalCheckFailedException when DynamoDB refused the write by its condition, as the SDK
     *         would throw it (with the item that refused it, when the request asked for it)
     */
    public PutItemResponse putItem(PutItemRequest request) {
        if (!enabled || !takes(request)) {
            return null;
        }
        byte[] body;
        try {
            body = body(request);
        } catch (IOException | RuntimeException e) {
            return null; // something this writer does not handle: the SDK says what is wrong
        }
        URI endpoint;
        try {
            endpoint = endpoint();
        } catch (RuntimeException e) {
            enabled = false;
            log.warn("No endpoint for a PutItem sent without the SDK's pipeline ({}); every PutItem goes through the SDK client",
                    e.toString());
            return null;
        }
        try {
            SdkHttpFullRequest.Builder builder = SdkHttpFullRequest.builder()
                    .method(SdkHttpMethod.POST)
                    .uri(endpoint)
                    .encodedPath(endpoint.getRawPath() == null || endpoint.getRawPath().isEmpty() ? "/" : endpoint.getRawPath())
                    .putHeader("Content-Type", CONTENT_TYPE)
                    .putHeader("X-Amz-Target", TARGET)
                    .putHeader("Content-Length", Integer.toString(body.length));
            String trace = traceId();
            if (trace != null) {
                builder.putHeader("X-Amzn-Trace-Id", trace);
            }
            SdkHttpFullRequest unsigned = builder.build();
            AwsCredentialsIdentity identity = credentials.resolveIdentity().join();
            ContentStreamProvider payload = ContentStreamProvider.fromByteArrayUnsafe(body);
            SignedRequest signed = signer.sign(r -> r.identity(identity).request(unsigned).payload(payload)
                    .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "dynamodb")
                    .putProperty(AwsV4HttpSigner.REGION_NAME, region.id()));
            SdkHttpRequest sent = signed.request();
            HttpExecuteResponse response = http().prepareRequest(HttpExecuteRequest.builder()
                    .request(sent).contentStreamProvider(payload).build()).call();
            int status = response.httpResponse().statusCode();
            byte[] bytes = read(response);
            failures.set(0); // an answer: the path reaches DynamoDB
            if (status != 200) {
                ConditionalCheckFailedException failed = conditionFailed(status, bytes);
                if (failed != null) {
                    throw failed;
                }
                refused(status, bytes);
                return null;
            }
            String crc = response.httpResponse().firstMatchingHeader("x-amz-crc32").orElse(null);
            if (crc != null && !crc.equals(Long.toString(crc32(bytes)))) {
                return null; // the response was damaged on its way: the SDK's resend finds out what happened
            }
            return response(bytes);
        } catch (ConditionalCheckFailedException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            if (failures.incrementAndGet() >= MAX_FAILURES_IN_A_ROW) {
                enabled = false;
                log.warn("PutItem sent without the SDK's pipeline failed {} times in a row (last: {}); every PutItem now goes"
                        + " through the SDK client", MAX_FAILURES_IN_A_ROW, e.toString());
            } else {
                log.debug("PutItem sent directly did not complete ({}); sending it through the SDK", e.toString());
            }
            return null;
        }
    }

    /**
     * The SDK's Apache client, as {@code DynamoClients} builds it (TCP no-delay, keep-alive), with a pool
     * of its own. No idle-connection reaper: that is a JVM-wide thread holding every pool until closed,
     * and this one goes with its store client.
     */
    private SdkHttpClient http() {
        SdkHttpClient h = http;
        if (h == null) {
            synchronized (this) {
                if (http == null) {
                    http = ApacheHttpClient.builder().maxConnections(8).socketTimeout(timeout)
                            .connectionTimeout(timeout.compareTo(CONNECT_TIMEOUT) < 0 ? timeout : CONNECT_TIMEOUT)
                            .useIdleConnectionReaper(false).build();
                }
                h = http;
            }
        }
        return h;
    }

    /**
     * Errors that say this path, not the request, is at fault: how it signs or writes the call. Any of
     * them turns the shortcut off; every other error (a failed condition, throttling, a validation error
     * the SDK would meet too, a server error) leaves it on.
     */
    private static final List<String> PATH_AT_FAULT = List.of("Signature", "UnrecognizedClient", "MissingAuthenticationToken",
            "SerializationException", "UnknownOperation", "InvalidAction");

    private void refused(int status, byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (status != 403 && PATH_AT_FAULT.stream().noneMatch(text::contains)) {
            return;
        }
        enabled = false;
        log.warn("DynamoDB refused a PutItem sent without the SDK's pipeline (HTTP {}: {}); every PutItem now goes"
                + " through the SDK client, which says what is wrong if it is not this shortcut", status,
                text.length() > 300 ? text.substring(0, 300) : text);
    }

    /**
     * The endpoint override, else the region's endpoint by the SDK's endpoint provider, resolved on the
     * first call rather than when the store client is made: a client that never puts (a reader's) does
     * not run the endpoint rules at start-up.
     */
    URI endpoint() {
        URI e = endpoint;
        if (e == null) {
            e = DynamoDbEndpointProvider.defaultProvider()
                    .resolveEndpoint(DynamoDbEndpointParams.builder().region(region).build()).join().url();
            endpoint = e;
        }
        return e;
    }

    /**
     * Under Lambda, the invocation's X-Ray trace header, as the SDK's {@code TraceIdExecutionInterceptor}
     * adds it (the runtime's system property, else its environment variable); null elsewhere.
     */
    private static String traceId() {
        if (System.getenv("AWS_LAMBDA_FUNCTION_NAME") == null) {
            return null;
        }
        String t = System.getProperty("com.amazonaws.xray.traceHeader");
        return t != null ? t : System.getenv("_X_AMZN_TRACE_ID");
    }

    /** Whether the shortcut is still on (a refusal that blames the path turns it off). */
    boolean enabled() {
        return enabled;
    }

    private static byte[] read(HttpExecuteResponse response) throws IOException {
        if (response.responseBody().isEmpty()) {
            return new byte[0];
        }
        try (InputStream in = response.responseBody().get()) {
            return in.readAllBytes();
        }
    }

    private static long crc32(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return crc.getValue();
    }

    static byte[] body(PutItemRequest r) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("TableName", r.tableName());
            g.writeFieldName("Item");
            DynamoJson.writeItem(g, r.item());
            if (r.conditionExpression() != null) {
                g.writeStringField("ConditionExpression", r.conditionExpression());
            }
            if (r.hasExpressionAttributeNames()) {
                g.writeObjectFieldStart("ExpressionAttributeNames");
                for (Map.Entry<String, String> e : r.expressionAttributeNames().entrySet()) {
                    g.writeStringField(e.getKey(), e.getValue());
                }
                g.writeEndObject();
            }
            if (r.hasExpressionAttributeValues()) {
                g.writeFieldName("ExpressionAttributeValues");
                DynamoJson.writeItem(g, r.expressionAttributeValues());
            }
            if (r.returnValuesOnConditionCheckFailureAsString() != null) {
                g.writeStringField("ReturnValuesOnConditionCheckFailure", r.returnValuesOnConditionCheckFailureAsString());
            }
            if (r.returnConsumedCapacityAsString() != null) {
                g.writeStringField("ReturnConsumedCapacity", r.returnConsumedCapacityAsString());
            }
            g.writeEndObject();
        }
        return out.toByteArray();
    }

    /**
     * The SDK's exception for a write refused by its condition, from DynamoDB's answer (HTTP 400, type
     * {@code ...#ConditionalCheckFailedException}, and the item when asked for); null for any other
     * answer, or one it cannot read whole, which then goes to the SDK as before.
     */
    static ConditionalCheckFailedException conditionFailed(int status, byte[] bytes) {
        if (status != 400) {
            return null;
        }
        String type = null;
        String message = null;
        Map<String, AttributeValue> item = null;
        try (JsonParser p = JSON.createParser(bytes)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken t = p.nextToken();
                switch (field) {
                    case "__type" -> type = p.getText();
                    case "message", "Message" -> message = p.getText();
                    case "Item" -> item = t == JsonToken.START_OBJECT ? DynamoJson.readItem(p) : null;
                    default -> p.skipChildren();
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        if (type == null || !type.endsWith("#ConditionalCheckFailedException") && !type.equals("ConditionalCheckFailedException")) {
            return null;
        }
        ConditionalCheckFailedException.Builder b = ConditionalCheckFailedException.builder()
                .message(message)
                .statusCode(status)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("ConditionalCheckFailedException").errorMessage(message)
                        .serviceName("DynamoDb").build());
        if (item != null) {
            b.item(item);
        }
        return b.build();
    }

    /** The fields of a PutItem response this path asks for: the consumed capacity, if any. */
    static PutItemResponse response(byte[] bytes) throws IOException {
        PutItemResponse.Builder b = PutItemResponse.builder();
        try (JsonParser p = JSON.createParser(bytes)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("a PutItem response that is not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                if (field.equals("ConsumedCapacity") && p.currentToken() == JsonToken.START_OBJECT) {
                    b.consumedCapacity(capacity(p));
                } else {
                    p.skipChildren();
                }
            }
        }
        return b.build();
    }

    private static ConsumedCapacity capacity(JsonParser p) throws IOException {
        ConsumedCapacity.Builder c = ConsumedCapacity.builder();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "TableName" -> c.tableName(p.getText());
                case "CapacityUnits" -> c.capacityUnits(p.getDoubleValue());
                case "ReadCapacityUnits" -> c.readCapacityUnits(p.getDoubleValue());
                case "WriteCapacityUnits" -> c.writeCapacityUnits(p.getDoubleValue());
                default -> p.skipChildren();
            }
        }
        return c.build();
    }

    @Override
    public void close() {
        SdkHttpClient h = http;
        if (h != null) {
            h.close();
        }
    }
}
