package io.appendsfeed.model.store.internal;

import io.appendsfeed.model.StreamName;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How many events a stream's items held, on average, when it was last read forwards: what a read
 * of {@code n} events sizes its {@code Query} pages by. DynamoDB charges a {@code Query} for every
 * item it returns, whole, so a page of {@code n + 1} items where each holds dozens of events (an
 * equinox-js epoch's 48 KiB calves) reads and pays for dozens of times what was wanted. Bounded: the
 * least recently read streams are forgotten.
 */
public final class ItemSizeHints {

    private final Map<StreamName, Double> perItem;

    public ItemSizeHints(int capacity) {
        this.perItem = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<StreamName, Double> eldest) {
                return size() > capacity;
            }
        };
    }

    /** Events per item last seen for {@code stream}, or 0 when it was not read. */
    public synchronized double get(StreamName stream) {
        Double d = perItem.get(stream);
        return d == null ? 0 : d;
    }

    public synchronized void put(StreamName stream, double eventsPerItem) {
        if (eventsPerItem > 0) {
            perItem.put(stream, eventsPerItem);
        }
    }
}
