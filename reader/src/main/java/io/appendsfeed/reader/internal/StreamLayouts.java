package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.StoreItems;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Where each recently read stream's events sit in the store table (the first indices of its calves
 * and of its Tip, as last seen), how many events each category's items were seen to hold, and the
 * {@link ItemCache} of items read ahead: a body load then queries from the item holding its first
 * event and asks for just the items it needs.
 *
 * <p>Only ever a hint: a calf, once written, never changes, and new calves are keyed at the first
 * index of the Tip they came from, so a query from a remembered key still finds every event after
 * it; the loader checks what it got. Bounded (least recently used first out). Thread-safe.
 */
final class StreamLayouts {

    /** A stream's items as last seen. */
    static final class Layout {
        /** Calves seen: first index to the index after their last event. */
        private final TreeMap<Long, Long> calves = new TreeMap<>();
        /** First index of the Tip when last read, -1 when not seen. */
        private long tipFirst = -1;

        /** The key to query forwards from so that the first item returned holds {@code index}, or -1 when not known. */
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

    /**
     * Before a category's Tips or calves have been seen, a stream is taken to have calved when a load
     * wants more events than this: a guess that costs a request when wrong, never capacity.
     */
    static final long CALVED_GUESS = 32;

    /** The most events a Tip of a category held, and the fewest a calf held (a Tip calves when full). */
    private static final class ItemSizes {
        long mostInTip;
        long fewestInCalf = Long.MAX_VALUE;
    }

    private final Map<StreamName, Layout> layouts;
    /** Per category: a writer calves a Tip by its size, so streams of one category (events of like sizes) calve at like counts. */
    private final Map<String, ItemSizes> sizes;

    final ItemCache cache;

    StreamLayouts(int capacity, long cacheBytes) {
        this.layouts = lru(capacity);
        this.sizes = lru(capacity);
        this.cache = new ItemCache(cacheBytes);
    }

    private static <K, V> Map<K, V> lru(int capacity) {
        return new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > capacity;
            }
        };
    }

    synchronized Layout of(StreamName stream) {
        return layouts.computeIfAbsent(stream, s -> new Layout());
    }

    /** An item of a stream of {@code category} was seen to hold {@code held} events. */
    synchronized void held(String category, boolean tip, long held) {
        ItemSizes seen = sizes.computeIfAbsent(category, c -> new ItemSizes());
        if (tip) {
            seen.mostInTip = Math.max(seen.mostInTip, held);
        } else if (held > 0) {
            seen.fewestInCalf = Math.min(seen.fewestInCalf, held);
        }
    }

    /**
     * Whether a stream of {@code category} holding {@code wanted} events likely has calved: more than the
     * fullest Tip of the category read so far held, or than its emptiest calf ({@value #CALVED_GUESS} before any).
     */
    synchronized boolean likelyCalved(String category, long wanted) {
        ItemSizes seen = sizes.get(category);
        if (seen == null) {
            return wanted > CALVED_GUESS;
        }
        return seen.mostInTip > 0 && wanted > seen.mostInTip || wanted > seen.fewestInCalf;
    }

    /**
     * Per stream, the last store items read that still hold events after the ones loaded (bodies not
     * decoded): the stream's next loads (later spans, or the rest of a range cut at
     * {@code maxBatchEvents}) usually want them. Events never change once written, so an item is good
     * for any range it covers, however old. Bounded by bytes (DynamoDB's item size), least recently
     * used streams first. Thread-safe.
     */
    static final class ItemCache {

        /** Items kept per stream: what a stream read whole brings past its range, or a calf with those read ahead and the Tip. */
        static final int ITEMS_PER_STREAM = 32;

        private record Entry(Map<String, AttributeValue> item, long first, long next, long bytes) {}

        private final long maxBytes;
        private final LinkedHashMap<StreamName, List<Entry>> entries = new LinkedHashMap<>(256, 0.75f, true);
        private long bytes;

        ItemCache(long maxBytes) {
            this.maxBytes = maxBytes;
        }

        /** Cached items holding, one after the other, the events from {@code first} on, as far as they go towards {@code last}. */
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
            drop(items, e -> e.first == first);
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
            drop(items, e -> e.next <= next);
            if (items.isEmpty()) {
                entries.remove(stream);
            }
        }

        private void drop(List<Entry> items, Predicate<Entry> which) {
            for (Iterator<Entry> it = items.iterator(); it.hasNext(); ) {
                Entry e = it.next();
                if (which.test(e)) {
                    bytes -= e.bytes;
                    it.remove();
                }
            }
        }
    }
}
