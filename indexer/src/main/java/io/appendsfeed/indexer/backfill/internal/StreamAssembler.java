package io.appendsfeed.indexer.backfill.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.store.StoreItem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Collects each stream's items, from whichever scan segment they come, until the stream is whole (its
 * Tip seen, its calves covering every index up to the Tip's), then hands out its spans in index order,
 * overlaps trimmed (a calf and the Tip it was cut from can hold the same events). Only open streams are
 * kept, and a Scan brings a stream's items together, so few are. Thread-safe.
 */
public final class StreamAssembler {

    /** A stream's items by first index, and where its Tip ends (-1: not seen yet). */
    private static final class Pieces {
        final TreeMap<Long, Piece> byFirst = new TreeMap<>();
        long tipNext = -1;
    }

    private record Piece(StreamName stream, long first, List<String> types) {
        long next() {
            return first + types.size();
        }
    }

    private final Map<StreamName, Pieces> open = new HashMap<>();
    private final Set<StreamName> finished = new HashSet<>();
    private final Map<String, String> rejected = new HashMap<>();

    /** @return the stream's spans in index order when this item (a Tip, or a calf with its types) completes it, else null */
    public synchronized List<Span> add(StoreItem item) {
        Piece events;
        if (item instanceof StoreItem.Tip t) {
            events = new Piece(t.stream(), t.first(), t.types());
        } else if (item instanceof StoreItem.Calf c) {
            events = new Piece(c.stream(), c.first(), Objects.requireNonNull(c.types(), "calf.types"));
        } else {
            throw new IllegalArgumentException("neither a Tip nor a calf: " + item);
        }
        if (finished.contains(events.stream())) {
            return null; // written after the stream was assembled: a live indexer's business, or the next run's
        }
        Pieces p = open.computeIfAbsent(events.stream(), s -> new Pieces());
        if (item instanceof StoreItem.Tip) {
            p.tipNext = Math.max(p.tipNext, events.next());
        }
        p.byFirst.merge(events.first(), events, (a, b) -> a.next() >= b.next() ? a : b);
        List<Span> spans = spans(p.byFirst.values());
        if (p.tipNext < 0 || (spans.isEmpty() ? 0 : spans.get(spans.size() - 1).nextIndex()) < p.tipNext) {
            return null;
        }
        open.remove(events.stream());
        finished.add(events.stream());
        return spans;
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

    /** Contiguous spans from index 0, overlaps trimmed; stops at the first hole. */
    private static List<Span> spans(Iterable<Piece> ordered) {
        List<Span> out = new ArrayList<>();
        long cursor = 0;
        for (Piece e : ordered) {
            if (e.first() > cursor) {
                break;
            }
            Span s = e.types().isEmpty() ? null : new Span(e.stream(), e.first(), e.types()).from(cursor);
            if (s != null) {
                out.add(s);
                cursor = s.nextIndex();
            }
        }
        return out;
    }
}
