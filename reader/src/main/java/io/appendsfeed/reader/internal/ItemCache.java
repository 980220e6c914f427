package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.internal.ItemSize;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Per stream, the last store item a body load read that still holds events after the ones it
 * loaded, as read (bodies not decoded): the next load of that stream (a later span, or the rest
 * of a range cut at {@code maxBatchEvents}) usually wants them, and would otherwise read the same
 * item again. Events never change once written, so an item is good for any range it covers, however
 * old. Bounded by bytes (DynamoDB's item size); the least recently used go first. Thread-safe.
 */
final class ItemCache {

    private record Entry(Map<String, AttributeValue> item, long first, long next, long bytes) {}

    private final long maxBytes;
    private final LinkedHashMap<StreamName, Entry> entries = new LinkedHashMap<>(256, 0.75f, true);
    private long bytes;

    ItemCache(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** The cached item holding every event of {@code [first, last]}, or null. */
    synchronized Map<String, AttributeValue> covering(StreamName stream, long first, long last) {
        Entry e = entries.get(stream);
        return e != null && e.first <= first && last < e.next ? e.item : null;
    }

    /** Keeps {@code item} (holding {@code [first, next)}) as the stream's, replacing the one before. */
    synchronized void put(StreamName stream, Map<String, AttributeValue> item, long first, long next) {
        long size = ItemSize.item(item);
        remove(stream);
        if (size > maxBytes) {
            return;
        }
        entries.put(stream, new Entry(item, first, next, size));
        bytes += size;
        Iterator<Entry> eldest = entries.values().iterator();
        while (bytes > maxBytes && eldest.hasNext()) {
            bytes -= eldest.next().bytes;
            eldest.remove();
        }
    }

    synchronized void remove(StreamName stream) {
        Entry old = entries.remove(stream);
        if (old != null) {
            bytes -= old.bytes;
        }
    }
}
