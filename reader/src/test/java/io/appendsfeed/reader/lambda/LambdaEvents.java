package io.appendsfeed.reader.lambda;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.model.feed.FeedNotification;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Test support: Lambda events in the shape AWS delivers them (fixtures in {@code src/test/resources/lambda},
 * and SQS batches of the notifier's messages: its body and attributes), and a function invoked with them
 * through its stream entry point, as the Lambda runtime does.
 */
public final class LambdaEvents {

    static final ObjectMapper JSON = new ObjectMapper();

    private LambdaEvents() {}

    /** A fixture with {@code ${NAME}} placeholders filled in. */
    public static String resource(String name, Map<String, String> values) {
        try (InputStream in = LambdaEvents.class.getResourceAsStream("/lambda/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource /lambda/" + name);
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            for (Map.Entry<String, String> e : values.entrySet()) {
                text = text.replace("${" + e.getKey() + "}", e.getValue());
            }
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An SQS batch of messages as the notifier publishes them (raw delivery from its topic). */
    public static String sqs(List<FeedNotification> notifications) {
        ObjectNode event = JSON.createObjectNode();
        var records = event.putArray("Records");
        for (FeedNotification n : notifications) {
            records.add(sqsMessage(UUID.randomUUID().toString(), n.toJson(), Map.of(
                    FeedNotification.PARTITION_ATTRIBUTE, Integer.toString(n.partition().value()),
                    FeedNotification.POSITION_ATTRIBUTE, Long.toString(n.position().value()))));
        }
        return event.toString();
    }

    /** One SQS message of the Lambda event, with string message attributes. */
    public static ObjectNode sqsMessage(String id, String body, Map<String, String> attributes) {
        ObjectNode m = JSON.createObjectNode();
        m.put("messageId", id);
        m.put("receiptHandle", "AQEB" + id);
        m.put("body", body);
        m.putObject("attributes").put("ApproximateReceiveCount", "1").put("SentTimestamp", Long.toString(System.currentTimeMillis()));
        ObjectNode attrs = m.putObject("messageAttributes");
        attributes.forEach((k, v) -> {
            ObjectNode a = attrs.putObject(k);
            a.put("stringValue", v);
            a.putArray("stringListValues");
            a.putArray("binaryListValues");
            a.put("dataType", "String");
        });
        m.put("md5OfBody", "00000000000000000000000000000000");
        m.put("eventSource", "aws:sqs");
        m.put("eventSourceARN", "arn:aws:sqs:us-east-1:123456789012:reactor");
        m.put("awsRegion", "us-east-1");
        return m;
    }

    public static String batch(ObjectNode... messages) {
        ObjectNode event = JSON.createObjectNode();
        var records = event.putArray("Records");
        for (ObjectNode m : messages) {
            records.add(m);
        }
        return event.toString();
    }

    /** Invokes the function's stream entry point with the event; its JSON response. */
    public static JsonNode invoke(ReactorHandler function, String event, LocalContext context) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        function.handleRequest(new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8)), out, context);
        return JSON.readTree(out.toByteArray());
    }

    /** The message ids of an SQS partial batch response. */
    public static List<String> failures(JsonNode response) {
        return java.util.stream.StreamSupport.stream(response.path("batchItemFailures").spliterator(), false)
                .map(f -> f.path("itemIdentifier").asText()).toList();
    }
}
