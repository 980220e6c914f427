package io.appendsfeed.indexer.backfill.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.store.StoreItem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Collects each stream's items, from whichever scan segment they come, until the stream is whole:
 * its Tip seen and its calves covering every index from 0 up to the Tip's. Then hands out the
 * stream's spans in index order, overlaps trimmed (a calf and the Tip it was cut from, seen
 * before and after a concurrent calving, hold the same events). Only streams still open are kept
 * in memory, and in a DynamoDB Scan a stream's items come together, so little is. Thread-safe.
 */
public final class StreamAssembler {

    private final Map<StreamName, Pieces> open = new HashMap<>();
    private final Set<StreamName> finished = new HashSet<>();
    private final Map<String, String> rejected = new HashMap<>();
    private long lateItems;

    private static final class Pieces {
        final TreeMap<Long, Piece> byFirst = new TreeMap<>();
        long tipNext = -1;
    }

    /** The events of one item: {@code first .. first + types.size() - 1} (a Tip possibly none). */
    record Piece(StreamName stream, long first, List<String> types, boolean tip) {
        long next() {
            return first + types.size();
        }

        /** The events as a span; null when there are none. */
        Span span() {
            return types.isEmpty() ? null : new Span(stream, first, types);
        }
    }

    /** @return the stream's spans in order when this Tip completes it, else null */
    public List<Span> add(StoreItem.Tip tip) {
        return add(new Piece(tip.stream(), tip.first(), tip.types(), true));
    }

    /**
     * @param calf read with its types ({@link io.appendsfeed.model.store.StoreItems#parse})
     * @return the stream's spans in order when this calf completes it, else null
     */
    public List<Span> add(StoreItem.Calf calf) {
        return add(new Piece(calf.stream(), calf.first(), java.util.Objects.requireNonNull(calf.types(), "calf.types"), false));
    }

    private synchronized List<Span> add(Piece item) {
        if (finished.contains(item.stream())) {
            lateItems++; // written after the stream was assembled: a live indexer's business, or the next run's
            return null;
        }
        Pieces p = open.computeIfAbsent(item.stream(), s -> new Pieces());
        if (item.tip()) {
            p.tipNext = Math.max(p.tipNext, item.next());
        }
        p.byFirst.merge(item.first(), item, (a, b) -> a.next() >= b.next() ? a : b);
        if (p.tipNext < 0 || coveredUpTo(p) < p.tipNext) {
            return null;
        }
        open.remove(item.stream());
        finished.add(item.stream());
        return spans(p.byFirst.values());
    }

    /** Leaves the stream out: with an item it cannot read, its events cannot be indexed in order. */
    public synchronized void reject(StoreItem.Malformed item) {
        rejected.put(item.key(), item.problem());
        if (item.stream() != null) {
            open.remove(item.stream());
            finished.add(item.stream());
        }
    }

    /** Streams seen but never whole: to be read again once the scan is over. */
    public synchronized List<StreamName> incomplete() {
        return List.copyOf(open.keySet());
    }

    public synchronized Map<String, String> rejected() {
        return Map.copyOf(rejected);
    }

    public synchronized long lateItems() {
        return lateItems;
    }

    private static long coveredUpTo(Pieces p) {
        long cursor = 0;
        for (Piece e : p.byFirst.values()) {
            if (e.first() > cursor) {
                break;
            }
            cursor = Math.max(cursor, e.next());
        }
        return cursor;
    }

    /** Contiguous spans from index 0, overlaps trimmed; stops at the first hole. */
    static List<Span> spans(Iterable<Piece> ordered) {
        List<Span> out = new ArrayList<>();
        long cursor = 0;
        for (Piece e : ordered) {
            if (e.first() > cursor) {
                break;
            }
            Span s = e.span() == null ? null : e.span().from(cursor);
            if (s != null) {
                out.add(s);
                cursor = s.nextIndex();
            }
        }
        return out;
    }
}
