package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where each recently read stream's events sit in the store table: the first indices of its
 * calves and of its Tip, as last seen. A body load then queries from the item holding its first
 * event and asks for just the items it needs, instead of the items before and after it.
 *
 * <p>Only ever a hint: a calf, once written, never changes, and new calves are keyed at the
 * first index of the Tip they came from, so a query from a remembered key still finds every
 * event after it; the loader checks what it got and reads on when the hint fell short. Bounded:
 * the least recently used streams are forgotten. Thread-safe.
 */
final class StreamLayouts {

    /** A stream's items as last seen. */
    static final class Layout {
        /** Calves seen: first index to the index after their last event. */
        private final TreeMap<Long, Long> calves = new TreeMap<>();
        /** First index of the Tip when last read, -1 when not seen. */
        private long tipFirst = -1;

        /**
         * The key to query forwards from so that the first item returned holds {@code index}, or
         * -1 when not known.
         */
        synchronized long startKey(long index) {
            if (tipFirst >= 0 && index >= tipFirst) {
                return tipFirst; // the Tip, or the first calf made from it since
            }
            Map.Entry<Long, Long> calf = calves.floorEntry(index);
            if (calf == null) {
                return -1;
            }
            if (index < calf.getValue()) {
                return calf.getKey();
            }
            // right after a known calf: a stream's items are contiguous (a calf is keyed at the first
            // index of the Tip it came from, and the Tip then starts where it ends), so an item starts here
            return index == calf.getValue() ? index : -1;
        }

        /** Items a forward query from {@code startKey} needs to reach {@code last}, as far as known (at least 1). */
        synchronized int itemsTo(long startKey, long last) {
            int n = calves.subMap(startKey, true, last, true).size();
            if (tipFirst >= 0 && last >= tipFirst) {
                n++;
            }
            return Math.max(1, n);
        }

        synchronized boolean anyCalf() {
            return !calves.isEmpty();
        }

        /** First index of the Tip when last read, -1 when not seen. */
        synchronized long tip() {
            return tipFirst;
        }

        /** Forgets what was seen (a hint that proved wrong). */
        synchronized void forget() {
            calves.clear();
            tipFirst = -1;
        }

        synchronized void calf(long first, long next) {
            calves.put(first, next);
        }

        synchronized void tip(long first) {
            tipFirst = Math.max(tipFirst, first);
        }
    }

    private final Map<StreamName, Layout> layouts;

    StreamLayouts(int capacity) {
        this.layouts = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<StreamName, Layout> eldest) {
                return size() > capacity;
            }
        };
    }

    synchronized Layout of(StreamName stream) {
        return layouts.computeIfAbsent(stream, s -> new Layout());
    }
}
