package io.appendsfeed.indexer.cli.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Partitioner;
import io.appendsfeed.model.feed.Span;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The pure part of {@code feed verify}: takes the index's spans in feed order, then the store's
 * stream versions, and names every event that is missing, listed twice or out of order. A stream
 * is read in one partition, so per stream the spans must cover {@code 0 .. version-1} exactly
 * once, in order.
 */
public final class CoverageCheck {

    /** One stream as indexed so far: the next index expected, and holes left by spans that started late. */
    private static final class Coverage {
        final PartitionId partition;
        long next;
        /** Hole start -> hole. */
        TreeMap<Long, Hole> holes;

        Coverage(PartitionId partition) {
            this.partition = partition;
        }
    }

    /** Events {@code [start, end)} skipped by the span listed at {@code at}. */
    private record Hole(long end, Checkpoint at) {}

    private final int partitions;
    private final Map<StreamName, Coverage> streams = new HashMap<>();
    private final List<Problem> problems = new ArrayList<>();
    private long spans;
    private long events;

    public CoverageCheck(int partitions) {
        this.partitions = partitions;
    }

    /** The next span of partition {@code p}, in the order the feed lists them. */
    public void span(PartitionId p, Checkpoint at, Span s) {
        spans++;
        events += s.count();
        PartitionId home = Partitioner.route(s.stream(), partitions);
        if (!home.equals(p)) {
            problems.add(new Problem(Problem.Kind.WRONG_PARTITION, s.stream().value(), p, at, "partition " + home,
                    "span " + range(s.index(), s.nextIndex()) + " in partition " + p));
        }
        Coverage c = streams.computeIfAbsent(s.stream(), k -> new Coverage(p));
        long from = s.index();
        long to = s.nextIndex();
        if (from > c.next) {
            if (c.holes == null) {
                c.holes = new TreeMap<>();
            }
            c.holes.put(c.next, new Hole(from, at));
        } else if (from < c.next) {
            overlap(s.stream(), c, p, at, from, Math.min(to, c.next));
        }
        c.next = Math.max(c.next, to);
    }

    /** Classifies events {@code [from, to)}, all below the stream's next index: late fills of holes, or duplicates. */
    private void overlap(StreamName stream, Coverage c, PartitionId p, Checkpoint at, long from, long to) {
        long i = from;
        while (i < to) {
            Map.Entry<Long, Hole> hole = c.holes == null ? null : c.holes.floorEntry(i);
            if (hole != null && i < hole.getValue().end()) {
                long fillEnd = Math.min(to, hole.getValue().end());
                problems.add(new Problem(Problem.Kind.OUT_OF_ORDER, stream.value(), p, at,
                        range(i, fillEnd) + " before index " + hole.getValue().end() + " (listed at " + hole.getValue().at().display() + ")",
                        range(i, fillEnd) + " after it"));
                splitHole(c, hole.getKey(), hole.getValue(), i, fillEnd);
                i = fillEnd;
            } else {
                Map.Entry<Long, Hole> nextHole = c.holes == null ? null : c.holes.higherEntry(i);
                long end = nextHole == null ? to : Math.min(to, nextHole.getKey());
                problems.add(new Problem(Problem.Kind.DUPLICATE, stream.value(), p, at,
                        "each event once (next new one: index " + c.next + ")", range(i, end) + " again"));
                i = end;
            }
        }
    }

    private static void splitHole(Coverage c, long start, Hole hole, long fillFrom, long fillTo) {
        c.holes.remove(start);
        if (start < fillFrom) {
            c.holes.put(start, new Hole(fillFrom, hole.at()));
        }
        if (fillTo < hole.end()) {
            c.holes.put(fillTo, new Hole(hole.end(), hole.at()));
        }
    }

    /**
     * Compares with the store and returns every problem, in the order found.
     *
     * @param storeVersions each stream's version (event count) in the store; {@code $} streams excluded
     * @param recheck the store version of a stream read again now, for streams the index lists beyond
     *                what the scan saw (written after the scan); null when the stream does not exist
     */
    public List<Problem> finish(Map<StreamName, Long> storeVersions, Function<StreamName, Long> recheck) {
        List<Problem> out = new ArrayList<>(problems);
        for (Map.Entry<StreamName, Coverage> e : streams.entrySet()) {
            Coverage c = e.getValue();
            if (c.holes != null) {
                for (Map.Entry<Long, Hole> h : c.holes.entrySet()) {
                    long end = h.getValue().end();
                    out.add(new Problem(Problem.Kind.GAP, e.getKey().value(), c.partition, h.getValue().at(),
                            "index " + h.getKey(), "index " + end + " (" + range(h.getKey(), end) + " missing)"));
                }
            }
            Long version = storeVersions.get(e.getKey());
            if (version == null || c.next > version) {
                Long now = recheck.apply(e.getKey());
                if (now == null || c.next > now) {
                    out.add(new Problem(Problem.Kind.BEYOND_STORE, e.getKey().value(), c.partition, null,
                            now == null ? "no stream in the store" : "version " + now, "indexed up to index " + (c.next - 1)));
                }
            }
        }
        for (Map.Entry<StreamName, Long> s : storeVersions.entrySet()) {
            Coverage c = streams.get(s.getKey());
            long version = s.getValue();
            if (version == 0) {
                continue;
            }
            if (c == null) {
                out.add(new Problem(Problem.Kind.MISSING_STREAM, s.getKey().value(), Partitioner.route(s.getKey(), partitions), null,
                        range(0, version) + " indexed", "none"));
            } else if (c.next < version) {
                out.add(new Problem(Problem.Kind.NOT_INDEXED, s.getKey().value(), c.partition, null,
                        range(0, version) + " indexed", "up to index " + (c.next - 1) + " (" + range(c.next, version) + " missing)"));
            }
        }
        return out;
    }

    public long spans() {
        return spans;
    }

    public long events() {
        return events;
    }

    public int streams() {
        return streams.size();
    }

    /** {@code events 3..5} or {@code event 3}. */
    static String range(long from, long toExclusive) {
        return toExclusive - from == 1 ? "event " + from : "events " + from + ".." + (toExclusive - 1);
    }
}
