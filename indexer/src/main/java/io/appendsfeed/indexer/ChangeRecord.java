package io.appendsfeed.indexer;

import io.appendsfeed.model.store.StoreItems;
import java.time.Instant;
import java.util.AbstractList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * One DynamoDB Streams record as the indexer sees it, whichever source delivered it.
 *
 * @param sequenceNumber what a source acknowledges up to
 * @param eventName {@code INSERT}, {@code MODIFY} or {@code REMOVE}, as delivered (validated by the parser)
 * @param viewType the stream view type, null when the source does not say
 * @param newImage the item after the change, null when the view type carries none
 * @param approximateCreation when the change was made, per DynamoDB; null when unknown
 * @param eventTypes the image's event types {@code c} when the adapter took them out of it (Lambda), else null: a
 *                   view, not copied, that may check each type when read ({@link #checkedTypes})
 */
public record ChangeRecord(String sequenceNumber, String eventName, String viewType, Map<String, AttributeValue> keys,
                           Map<String, AttributeValue> newImage, Instant approximateCreation, List<String> eventTypes) {

    public ChangeRecord {
        Objects.requireNonNull(sequenceNumber, "sequenceNumber");
        keys = keys == null ? Map.of() : Map.copyOf(keys);
        newImage = newImage == null ? null : Map.copyOf(newImage);
        eventTypes = eventTypes == null ? null : Collections.unmodifiableList(eventTypes);
    }

    /** A record whose event types, if any, are in its image's {@code c}. */
    public ChangeRecord(String sequenceNumber, String eventName, String viewType, Map<String, AttributeValue> keys,
                        Map<String, AttributeValue> newImage, Instant approximateCreation) {
        this(sequenceNumber, eventName, viewType, keys, newImage, approximateCreation, null);
    }

    /** Converts an SDK v2 Streams record ({@code GetRecords}, KCL adapter). */
    public static ChangeRecord from(Record record) {
        var d = record.dynamodb();
        if (d == null) {
            throw new IllegalArgumentException("stream record " + record.eventID() + " has no 'dynamodb' part");
        }
        return new ChangeRecord(d.sequenceNumber(), record.eventNameAsString(), d.streamViewTypeAsString(),
                d.hasKeys() ? d.keys() : Map.of(), d.hasNewImage() ? d.newImage() : null, d.approximateCreationDateTime());
    }

    /**
     * A Tip's event types, each checked when read, throwing {@link IllegalArgumentException} naming the record: the
     * older ones are read only to heal a gap, so a bad one there does not stop the new events.
     *
     * @param held per type, its string, or what the item holds instead (refused when read)
     */
    public static List<String> checkedTypes(List<?> held, String record) {
        Object[] types = held.toArray();
        return new AbstractList<>() {
            @Override
            public String get(int k) {
                if (types[k] instanceof String type && !type.isEmpty()) {
                    return type;
                }
                throw new IllegalArgumentException("attribute c holds " + types[k] + " where a non-empty string (S) event type"
                        + " belongs (event type " + (k + 1) + " of " + types.length + ", record " + record + "); the item is"
                        + " not of the store format: repair its c, or send the record to the on-failure destination");
            }

            @Override
            public int size() {
                return types.length;
            }
        };
    }

    /** {@code p=Account-42, i=2147483647} for messages; never throws. */
    public String describeKey() {
        return StoreItems.describeKey(keys);
    }

    @Override
    public String toString() {
        return "record " + sequenceNumber + " (" + eventName + " " + describeKey() + ")";
    }
}
