package io.appendsfeed.model.store.internal;

import io.appendsfeed.model.StreamName;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last-known shape of each recently used stream's Tip, least recently used evicted first.
 * Never trusted alone: every write that relies on it is conditioned on the cached etag, so a stale
 * entry only costs a failed condition (whose returned item refreshes it). Thread-safe.
 */
public final class TipCache {

    private final int capacity;
    private final Map<StreamName, TipState> entries;

    public TipCache(int capacity) {
        this.capacity = capacity;
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<StreamName, TipState> eldest) {
                return size() > TipCache.this.capacity;
            }
        };
    }

    public synchronized TipState get(StreamName stream) {
        return entries.get(stream);
    }

    /** Keeps {@code state} without its item (a Tip's events could be 400 KB; the shape is ~100 bytes). */
    public synchronized void put(StreamName stream, TipState state) {
        if (capacity > 0) {
            entries.put(stream, state.withoutItem());
        }
    }

    public synchronized void remove(StreamName stream) {
        entries.remove(stream);
    }

    public synchronized int size() {
        return entries.size();
    }
}
