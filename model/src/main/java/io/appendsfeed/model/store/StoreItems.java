package io.appendsfeed.model.store;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.internal.Fields;
import io.appendsfeed.model.store.internal.ItemParser;
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
    /** How many events the write of a Tip appended (absent: 0). */
    public static final String APPENDED = Fields.A;
    /** The Tip's range key, {@code Int32.MaxValue}: fixed by the format (written once, in {@code Fields}). */
    public static final long TIP_INDEX = Fields.TIP_INDEX;

    private StoreItems() {}

    /**
     * An event's timestamp {@code t} as any implementation writes it (ISO-8601, 0 to 9 fractional
     * digits, {@code Z} or an offset); the usual {@code Z} form is read without a formatter.
     *
     * @throws java.time.format.DateTimeParseException when the text is not an ISO-8601 date-time
     */
    public static java.time.Instant timestamp(String t) {
        return io.appendsfeed.model.store.internal.Timestamps.parse(t);
    }

    /** The item's range key {@code i}; -1 when it has none. */
    public static long rangeKey(Map<String, AttributeValue> item) {
        return Items.rangeKey(item);
    }

    /**
     * What a whole item is (as a scan or an export reads it: {@code p, i, n, c}, and {@code a} when
     * present): a {@link StoreItem.Tip} (with {@code times} empty), a {@link StoreItem.Calf}, a
     * {@link StoreItem.Reserved} item, or a {@link StoreItem.Malformed} one saying what is wrong. Never throws.
     */
    public static StoreItem parse(Map<String, AttributeValue> item) {
        return ItemParser.item(item);
    }

    /**
     * What a Streams record's new image shows (DESIGN.md, "The indexer", step 2): a {@link StoreItem.Tip}
     * that appended events, a {@link StoreItem.Unfolded} Tip ({@code a} = 0), a {@link StoreItem.Calf}
     * (read no further than its key: types null), a {@link StoreItem.Reserved} item, or a
     * {@link StoreItem.Malformed} one ({@link #NO_IMAGE} for a Tip's record without an image). Reads only
     * what that takes, and allocates nothing per event when {@code types} and {@code times} are given.
     * Never throws.
     *
     * @param keys the record's key attributes ({@code p}, {@code i})
     * @param image the new image, or null when the record carries none
     * @param types the image's event types {@code c} when the source took them out of the image (each a
     *              non-empty string), used as given; null to read {@code c}
     * @param times the timestamps {@code t} of the image's events when the source took them out of the
     *              image, used as given; null for a view over the image's {@code e}
     */
    public static StoreItem parseImage(Map<String, AttributeValue> keys, Map<String, AttributeValue> image,
                                       List<String> types, List<String> times) {
        return ItemParser.image(keys, image, types, times);
    }

    /** The problem of a {@link StoreItem.Malformed} Tip whose Streams record carries no new image. */
    public static final String NO_IMAGE = ItemParser.NO_IMAGE;

    /** An item's key for messages, {@code p=Account-42, i=2147483647}; never throws. */
    public static String describeKey(Map<String, AttributeValue> keys) {
        return ItemParser.describeKey(keys);
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
