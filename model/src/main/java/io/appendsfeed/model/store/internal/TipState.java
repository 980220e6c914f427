package io.appendsfeed.model.store.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreFormatException;
import io.appendsfeed.model.store.StoreItems;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What an append must know of a Tip: version and etag (the condition), events and their bytes (whether to calve),
 * bytes in calves, and the whole item when just read (a calving copies its events; the cache drops it).
 *
 * @param eventBytes item-size bytes of the elements of {@code e} and {@code c}
 */
public record TipState(long version, String etag, int eventCount, long eventBytes, long calfBytes,
                       Map<String, AttributeValue> item) {

    static final TipState NONE = new TipState(0, null, 0, 0, 0, null);

    public static TipState of(StreamName stream, Map<String, AttributeValue> tip) {
        List<AttributeValue> c = list(stream, tip, StoreItems.TYPES);
        long bytes = Stream.concat(list(stream, tip, StoreItems.EVENTS).stream(), c.stream()).mapToLong(ItemSize::element).sum();
        return new TipState(StoreItems.next(stream, tip), StoreItems.etag(tip), c.size(), bytes,
                StoreItems.number(stream, tip, StoreItems.CALF_BYTES), tip);
    }

    boolean satisfies(Expected expected) {
        if (expected instanceof Expected.Version v) {
            return v.version() == version;
        }
        if (expected instanceof Expected.Etag t) {
            return t.etag().equals(etag);
        }
        return !(expected instanceof Expected.Absent); // a Tip exists
    }

    /** Never an empty list for an attribute of another type (what the SDK's {@code l()} returns): that would append to it blindly. */
    private static List<AttributeValue> list(StreamName stream, Map<String, AttributeValue> tip, String name) {
        AttributeValue v = tip.get(name);
        if (v == null) {
            return List.of();
        }
        if (v.type() != AttributeValue.Type.L) {
            throw new StoreFormatException(stream, StoreItems.rangeKey(tip), "attribute " + name + " is not a list (L): " + v);
        }
        return v.l();
    }

    /**
     * The Tips of the {@code capacity} most recently used streams; thread-safe. Never trusted alone: every write is
     * conditioned on the cached etag, so a stale entry costs a failed condition.
     */
    public static final class Cache {
        private final Map<StreamName, TipState> entries;

        public Cache(int capacity) {
            this.entries = new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<StreamName, TipState> eldest) {
                    return size() > capacity;
                }
            };
        }

        synchronized TipState get(StreamName stream) {
            return entries.get(stream);
        }

        /** Without its item (up to 400 KB). */
        public synchronized void put(StreamName stream, TipState state) {
            entries.put(stream, state.item() == null ? state
                    : new TipState(state.version(), state.etag(), state.eventCount(), state.eventBytes(), state.calfBytes(), null));
        }

        synchronized void remove(StreamName stream) {
            entries.remove(stream);
        }
    }
}
