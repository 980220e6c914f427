package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.StoreItems;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Per stream, the last store items (at most {@link #ITEMS_PER_STREAM}: the calf a load ended in, the
 * calves read ahead with it and the Tip, or what a stream read whole brought) that still hold events
 * after the ones loaded, as read (bodies not decoded):
 * the stream's next loads (later spans, or the rest of a range cut at {@code maxBatchEvents})
 * usually want them and would otherwise read the same items again. Events never change once
 * written, so an item is good for any range it covers, however old. Bounded by bytes (DynamoDB's
 * item size); the least recently used streams go first. Thread-safe.
 */
final class ItemCache {

    /**
     * Items kept per stream: what a first load read whole brings past its range ({@link ItemRangeReader#readWhole}:
     * up to this many), or a calf with the calves read ahead after it and the Tip.
     */
    static final int ITEMS_PER_STREAM = 32;

    private record Entry(Map<String, AttributeValue> item, long first, long next, long bytes) {}

    private final long maxBytes;
    private final LinkedHashMap<StreamName, List<Entry>> entries = new LinkedHashMap<>(256, 0.75f, true);
    private long bytes;

    ItemCache(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * Cached items holding, one after the other, the events from {@code first} on, as far as they
     * go towards {@code last}: the events up to the last one's end need no read.
     */
    synchronized List<Map<String, AttributeValue>> from(StreamName stream, long first, long last) {
        List<Entry> items = entries.get(stream);
        if (items == null) {
            return List.of();
        }
        List<Map<String, AttributeValue>> out = new ArrayList<>(items.size());
        long at = first;
        boolean found = true;
        while (at <= last && found) {
            found = false;
            for (Entry e : items) {
                if (e.first <= at && at < e.next) {
                    out.add(e.item);
                    at = e.next;
                    found = true;
                    break;
                }
            }
        }
        return out;
    }

    /** Whether an item starting at {@code first} is cached for the stream. */
    synchronized boolean holds(StreamName stream, long first) {
        List<Entry> items = entries.get(stream);
        return items != null && items.stream().anyMatch(e -> e.first == first);
    }

    /** The first index of the earliest cached item of the stream that starts after {@code index}, or -1. */
    synchronized long firstAfter(StreamName stream, long index) {
        List<Entry> items = entries.get(stream);
        long found = -1;
        if (items != null) {
            for (Entry e : items) {
                if (e.first > index && (found < 0 || e.first < found)) {
                    found = e.first;
                }
            }
        }
        return found;
    }

    /** Keeps {@code item} (holding {@code [first, next)}), dropping the stream's oldest beyond {@link #ITEMS_PER_STREAM}. */
    synchronized void put(StreamName stream, Map<String, AttributeValue> item, long first, long next) {
        long size = StoreItems.size(item);
        if (size > maxBytes) {
            return;
        }
        List<Entry> items = entries.computeIfAbsent(stream, s -> new ArrayList<>(ITEMS_PER_STREAM));
        items.removeIf(e -> {
            boolean same = e.first == first;
            if (same) {
                bytes -= e.bytes;
            }
            return same;
        });
        while (items.size() >= ITEMS_PER_STREAM) {
            bytes -= items.remove(0).bytes;
        }
        items.add(new Entry(item, first, next, size));
        bytes += size;
        Iterator<List<Entry>> eldest = entries.values().iterator();
        while (bytes > maxBytes && eldest.hasNext()) {
            for (Entry e : eldest.next()) {
                bytes -= e.bytes;
            }
            eldest.remove();
        }
    }

    /** Forgets the stream's items that end at or before {@code next}: nothing of them is wanted any more. */
    synchronized void consumed(StreamName stream, long next) {
        List<Entry> items = entries.get(stream);
        if (items == null) {
            return;
        }
        items.removeIf(e -> {
            boolean done = e.next <= next;
            if (done) {
                bytes -= e.bytes;
            }
            return done;
        });
        if (items.isEmpty()) {
            entries.remove(stream);
        }
    }
}
