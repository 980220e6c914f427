package io.appendsfeed.samples.eventsourcing;

import io.appendsfeed.model.Decider.Loaded;
import io.appendsfeed.model.StreamName;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last state this process wrote or read per stream, least recently used first out. Never
 * trusted alone: appends from it are conditioned on its version (a stale entry costs one refused
 * write), and a rejection decided on it is checked against a fresh read. Thread-safe.
 */
final class StateCache<S> {

    private final Map<StreamName, Loaded<S>> entries;

    StateCache(int maxStreams) {
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<StreamName, Loaded<S>> eldest) {
                return size() > maxStreams;
            }
        };
    }

    synchronized Loaded<S> get(StreamName stream) {
        return entries.get(stream);
    }

    synchronized void put(StreamName stream, Loaded<S> loaded) {
        Loaded<S> had = entries.get(stream);
        if (had == null || had.version() <= loaded.version()) {
            entries.put(stream, loaded);
        }
    }
}
