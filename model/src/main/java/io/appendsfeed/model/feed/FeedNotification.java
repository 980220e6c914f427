package io.appendsfeed.model.feed;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Objects;

/**
 * What the notifier tells reactors: a partition of the feed now reaches {@code position} (the
 * checkpoint just after its last epoch event; the next epoch's start once an epoch closed). A hint,
 * never the data: reactors read the feed itself, so a notification lost, repeated or out of order
 * costs at most a wake-up.
 *
 * <p>The wire format, defined here for both sides: the message body is the JSON
 * {@code {"partition":0,"position":1000042}}, and the same two values go as the string message
 * attributes {@value #PARTITION_ATTRIBUTE} and {@value #POSITION_ATTRIBUTE}, the attributes
 * Propulsion's notifier sends, so that subscriptions can filter by partition and reactors of either
 * implementation read the other's messages.
 */
public record FeedNotification(PartitionId partition, Checkpoint position) {

    /** Message attribute holding the partition, e.g. {@code "0"}. */
    public static final String PARTITION_ATTRIBUTE = "Partition";
    /** Message attribute holding the position as the raw checkpoint, e.g. {@code "1000042"}. */
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

    /**
     * Reads a message body written by {@link #toJson()}; other fields are ignored.
     *
     * @throws IllegalArgumentException saying what is wrong when the body is not such an object
     */
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

    /**
     * Reads the values of the {@value #PARTITION_ATTRIBUTE} and {@value #POSITION_ATTRIBUTE} message attributes.
     *
     * @throws IllegalArgumentException naming the attribute that is missing or not a whole number
     */
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
