package io.appendsfeed.indexer;

import io.appendsfeed.model.store.StoreItems;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * One DynamoDB Streams record as the indexer sees it, whichever source delivered it (Lambda,
 * KCL, the local poller, a test). Adapters convert their record type into this one; the core
 * never sees theirs.
 *
 * @param sequenceNumber the record's sequence number: what a source acknowledges up to
 * @param eventName {@code INSERT}, {@code MODIFY} or {@code REMOVE}, as delivered (not validated
 *                  here, so that an unexpected value is reported by the parser, not lost)
 * @param viewType the stream view type ({@code NEW_IMAGE}, ...), null when the source does not say
 * @param keys the item's key attributes ({@code p}, {@code i})
 * @param newImage the item after the change, null when the view type carries none
 * @param approximateCreation when the change was made, per DynamoDB; null when unknown
 * @param eventTimes the timestamps {@code t} of the new image's events, in order (null entries where
 *                   an event has none), when the adapter took them out of the image instead of
 *                   converting {@code e} (the Lambda adapter: the image's event list is most of its
 *                   attribute values); null to read them from the image's {@code e}. Taken as given, not
 *                   copied: a read-only view over the source's own record, which must not change
 * @param eventTypes the new image's event types {@code c}, in order, when the adapter took them out of
 *                   the image instead of converting {@code c} (the Lambda adapter); null to read them from
 *                   the image's {@code c}. Taken as given, not copied: a read-only view, which may read
 *                   each type from the source's record only when asked for, and must then throw
 *                   {@link IllegalArgumentException} saying what is wrong for one that is not a non-empty
 *                   string (the indexer reads the new events' types when it parses the record, rejecting
 *                   it for such a type, and the older ones only to heal a gap from the Tip)
 */
public record ChangeRecord(String sequenceNumber, String eventName, String viewType,
                           Map<String, AttributeValue> keys, Map<String, AttributeValue> newImage,
                           Instant approximateCreation, List<String> eventTimes, List<String> eventTypes) {

    public ChangeRecord {
        Objects.requireNonNull(sequenceNumber, "sequenceNumber");
        keys = keys == null ? Map.of() : Map.copyOf(keys);
        newImage = newImage == null ? null : Map.copyOf(newImage);
        eventTimes = eventTimes == null ? null : java.util.Collections.unmodifiableList(eventTimes);
        eventTypes = eventTypes == null ? null : java.util.Collections.unmodifiableList(eventTypes);
    }

    /** A record whose event times and types, if any, are in its image's {@code e} and {@code c}. */
    public ChangeRecord(String sequenceNumber, String eventName, String viewType, Map<String, AttributeValue> keys,
                        Map<String, AttributeValue> newImage, Instant approximateCreation) {
        this(sequenceNumber, eventName, viewType, keys, newImage, approximateCreation, null, null);
    }

    /** Converts an SDK v2 Streams record ({@code GetRecords}, KCL adapter). */
    public static ChangeRecord from(Record record) {
        var d = record.dynamodb();
        if (d == null) {
            throw new IllegalArgumentException("stream record " + record.eventID() + " has no 'dynamodb' part");
        }
        return new ChangeRecord(d.sequenceNumber(), record.eventNameAsString(), d.streamViewTypeAsString(),
                d.hasKeys() ? d.keys() : Map.of(), d.hasNewImage() ? d.newImage() : null,
                d.approximateCreationDateTime());
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
