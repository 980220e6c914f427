package io.appendsfeed.model.feed;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Objects;

/**
 * What the notifier tells reactors: a partition now reaches {@code position} (just after its last epoch event).
 * A hint, never the data: a notification lost, repeated or out of order costs at most a wake-up.
 *
 * <p>Wire format: the body {@code {"partition":0,"position":1000042}}, and the same values as the string
 * message attributes Propulsion's notifier sends, so that subscriptions filter by partition and either
 * implementation's reactors read the other's messages.
 */
public record FeedNotification(PartitionId partition, Checkpoint position) {

    public static final String PARTITION_ATTRIBUTE = "Partition";
    public static final String POSITION_ATTRIBUTE = "Position";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String EXAMPLE = "{\"partition\":0,\"position\":1000042}";

    public FeedNotification {
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(position, "position");
    }

    public static FeedNotification of(int partition, long position) {
        return new FeedNotification(PartitionId.of(partition), new Checkpoint(position));
    }

    /** The message body: {@code {"partition":0,"position":1000042}}. */
    public String toJson() {
        return "{\"partition\":" + partition.value() + ",\"position\":" + position.value() + "}";
    }

    /** Other fields are ignored. @throws IllegalArgumentException saying what is wrong */
    public static FeedNotification parseJson(String body) {
        JsonNode node;
        try {
            node = JSON.readTree(body == null ? "" : body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("notification body is not JSON: " + abbreviate(body), e);
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("notification body is not a JSON object such as " + EXAMPLE + ": " + abbreviate(body));
        }
        JsonNode p = node.path("partition"), pos = node.path("position");
        if (!p.isIntegralNumber() || !p.canConvertToInt() || !pos.isIntegralNumber() || !pos.canConvertToLong()) {
            throw new IllegalArgumentException("notification body needs whole numbers 'partition' and 'position', e.g. " + EXAMPLE
                    + ": " + abbreviate(body));
        }
        return of(p.intValue(), pos.longValue());
    }

    /** @throws IllegalArgumentException naming the attribute that is missing or not a whole number */
    public static FeedNotification parseAttributes(String partition, String position) {
        return of((int) number(PARTITION_ATTRIBUTE, partition, Integer.MAX_VALUE), number(POSITION_ATTRIBUTE, position, Long.MAX_VALUE));
    }

    private static long number(String attribute, String value, long max) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("notification attribute " + attribute + " is missing");
        }
        try {
            long n = Long.parseLong(value.trim());
            if (n < 0 || n > max) {
                throw new IllegalArgumentException("notification attribute " + attribute + " is " + n + ": out of range");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("notification attribute " + attribute + " is '" + abbreviate(value)
                    + "', not a whole number", e);
        }
    }

    private static String abbreviate(String s) {
        return s == null ? "(none)" : s.length() <= 200 ? s : s.substring(0, 200) + "... (" + s.length() + " chars)";
    }
}
