package io.appendsfeed.model.store.internal;

import io.appendsfeed.model.StreamName;
import java.util.LinkedHashMap;
import java.util.Map;

/** What is known of the {@code capacity} most recently used streams. Thread-safe. */
public class StreamLru<V> {
    private final Map<StreamName, V> entries;

    public StreamLru(int capacity) {
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<StreamName, V> eldest) {
                return size() > capacity;
            }
        };
    }

    synchronized V get(StreamName stream) {
        return entries.get(stream);
    }

    public synchronized void put(StreamName stream, V value) {
        entries.put(stream, value);
    }

    synchronized void remove(StreamName stream) {
        entries.remove(stream);
    }
}
