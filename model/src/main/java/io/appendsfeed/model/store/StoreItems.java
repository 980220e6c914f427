package io.appendsfeed.model.store;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.internal.Fields;
import io.appendsfeed.model.store.internal.ItemSize;
import io.appendsfeed.model.store.internal.Items;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Raw items of the store format, for readers that fetch items themselves (the feed reader gets the
 * latest items of many streams in one {@code BatchGetItem}). The one parser is the model's: these
 * delegate to it, so the attribute names and the rules (an item's k-th event has index
 * {@code n - len(e) + k}; the Tip's range key) stay in one place.
 */
public final class StoreItems {

    /** Hash key: the stream name. These names define the storage format (see DESIGN.md, "The store table"). */
    public static final String STREAM = Fields.P;
    /** Range key: {@link #TIP_INDEX} for the Tip, the index of the first event for any other item. */
    public static final String RANGE = Fields.I;
    /** The index the event after the item's events gets. */
    public static final String NEXT = Fields.N;
    /** The item's event types. */
    public static final String TYPES = Fields.C;
    /** The item's events. */
    public static final String EVENTS = Fields.E;
    /** The Tip's range key. */
    public static final long TIP_INDEX = Fields.TIP_INDEX;

    private StoreItems() {}

    /** The item's range key {@code i}. @throws StoreFormatException when it has none */
    /**
     * An event's timestamp {@code t} as any implementation writes it (ISO-8601, 0 to 9 fractional
     * digits, {@code Z} or an offset); the usual {@code Z} form is read without a formatter.
     *
     * @throws java.time.format.DateTimeParseException when the text is not an ISO-8601 date-time
     */
    public static java.time.Instant timestamp(String t) {
        return io.appendsfeed.model.store.internal.Timestamps.parse(t);
    }

    public static long rangeKey(Map<String, AttributeValue> item) {
        return Items.rangeKey(item);
    }

    /** Whether the item is a stream's Tip. */
    public static boolean isTip(Map<String, AttributeValue> item) {
        return Items.isTip(item);
    }

    /** The index the event after the item's events gets ({@code n}). @throws StoreFormatException when unreadable */
    public static long next(StreamName stream, Map<String, AttributeValue> item) {
        return Items.next(stream, item);
    }

    /** The index of the item's first event ({@code n - len(c)}). @throws StoreFormatException when unreadable */
    public static long firstIndex(StreamName stream, Map<String, AttributeValue> item) {
        return Items.firstIndex(stream, item);
    }

    /**
     * The item's events with indexes in [{@code from}, {@code to}), bodies decoded or left out.
     *
     * @throws StoreFormatException or {@link BodyDecodingException} when the item cannot be read
     */
    public static List<StoredEvent> events(StreamName stream, Map<String, AttributeValue> item, boolean bodies, long from, long to) {
        return Items.events(stream, item, bodies, from, to);
    }

    /** The item's size as DynamoDB counts it (names and values), in bytes. */
    public static long size(Map<String, AttributeValue> item) {
        return ItemSize.item(item);
    }
}
