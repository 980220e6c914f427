package io.appendsfeed.reader.lambda.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.appendsfeed.model.feed.FeedNotification;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads what invoked a Lambda-hosted reactor from the event's JSON, in the shapes Lambda delivers:
 * an SQS batch, an SNS notification, or an EventBridge scheduled event; and a feed notification from
 * a message, whether it came raw (body and attributes as the notifier published them) or wrapped
 * in SNS's envelope (a queue subscribed without raw message delivery).
 */
public final class LambdaInput {

    public enum Kind { SQS, SNS, SCHEDULED }

    /** A message of an SQS or SNS event: its id, its text and its string attributes. */
    public record Message(String id, String body, Map<String, String> attributes) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    private LambdaInput() {}

    /** @throws IllegalArgumentException naming what the event looks like when it is none of the three */
    public static Kind kind(JsonNode event) {
        JsonNode first = event.path("Records").path(0);
        if ("aws:sqs".equals(first.path("eventSource").asText())) {
            return Kind.SQS;
        }
        if ("aws:sns".equals(first.path("EventSource").asText())) {
            return Kind.SNS;
        }
        if ("aws.events".equals(event.path("source").asText()) || "Scheduled Event".equals(event.path("detail-type").asText())) {
            return Kind.SCHEDULED;
        }
        if (event.path("Records").isArray() && event.path("Records").isEmpty()) {
            return Kind.SQS; // an empty batch: nothing to do, answered as SQS
        }
        throw new IllegalArgumentException("a reactor takes SQS messages, SNS notifications or EventBridge scheduled events;"
                + " this event is none of them (its keys: " + names(event) + (first.isMissingNode() ? "" : ", its first record's keys: "
                + names(first)) + ")");
    }

    /**
     * The messages of an SQS event ({@code messageId}, {@code body}, {@code messageAttributes.*.stringValue}) or
     * of an SNS event ({@code Sns.MessageId}, {@code Sns.Message}, {@code Sns.MessageAttributes.*.Value}).
     */
    public static List<Message> messages(Kind kind, JsonNode event) {
        List<Message> out = new ArrayList<>();
        for (JsonNode r : event.path("Records")) {
            if (kind == Kind.SNS) {
                JsonNode sns = r.path("Sns");
                out.add(new Message(sns.path("MessageId").asText(), sns.path("Message").asText(null),
                        attributes(sns, "MessageAttributes", "Value")));
            } else {
                out.add(new Message(r.path("messageId").asText(), r.path("body").asText(null),
                        attributes(r, "messageAttributes", "stringValue")));
            }
        }
        return out;
    }

    /**
     * The notification a message carries: from its {@code Partition} and {@code Position} attributes
     * when it has both, else from its body (unwrapping SNS's envelope).
     *
     * @throws IllegalArgumentException saying what is wrong when it carries none
     */
    public static FeedNotification notification(String body, Map<String, String> attributes) {
        String partition = attributes.get(FeedNotification.PARTITION_ATTRIBUTE);
        String position = attributes.get(FeedNotification.POSITION_ATTRIBUTE);
        if (partition != null && position != null) {
            return FeedNotification.parseAttributes(partition, position);
        }
        JsonNode envelope = envelope(body);
        if (envelope != null) {
            return notification(envelope.path("Message").asText(null), attributes(envelope, "MessageAttributes", "Value"));
        }
        return FeedNotification.parseJson(body);
    }

    /** SNS's envelope ({@code {"Type":"Notification","Message":...}}), or null when the body is not one. */
    private static JsonNode envelope(String body) {
        if (body == null || !body.contains("\"Type\"")) {
            return null;
        }
        try {
            JsonNode node = JSON.readTree(body);
            return node.isObject() && "Notification".equals(node.path("Type").asText()) && node.has("Message") ? node : null;
        } catch (JsonProcessingException e) {
            return null; // not JSON at all: parseJson says so
        }
    }

    /** A message's string attributes: SQS's {@code {"Name": {"stringValue": "..."}}}, SNS's {@code {"Name": {"Value": "..."}}}. */
    private static Map<String, String> attributes(JsonNode message, String field, String value) {
        Map<String, String> out = new LinkedHashMap<>();
        message.path(field).fields().forEachRemaining(e -> {
            if (e.getValue().path(value).isValueNode() && !e.getValue().path(value).isNull()) {
                out.put(e.getKey(), e.getValue().path(value).asText());
            }
        });
        return out;
    }

    private static List<String> names(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
