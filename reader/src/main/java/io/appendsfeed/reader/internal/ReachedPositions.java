package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How far idle streams are handled, so that redelivered events below it are skipped. Bounded:
 * the least recently used streams are forgotten (they may then be delivered again, which at
 * least once allows). Not thread-safe: the scheduler guards it.
 */
final class ReachedPositions {

    private final Map<StreamName, Long> positions;

    ReachedPositions(int capacity) {
        this.positions = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<StreamName, Long> eldest) {
                return size() > capacity;
            }
        };
    }

    /** The first index not yet handled, -1 when unknown. */
    long get(StreamName stream) {
        return positions.getOrDefault(stream, -1L);
    }

    void put(StreamName stream, long nextIndex) {
        if (nextIndex >= 0) {
            positions.put(stream, nextIndex);
        }
    }
}
