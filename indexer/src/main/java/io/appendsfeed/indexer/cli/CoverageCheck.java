package io.appendsfeed.indexer.cli;

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
 * The pure part of {@code feed verify}: per stream, the index's spans must cover {@code 0 .. version-1} of the
 * store exactly once, in order, in the stream's partition; names every event for which they do not.
 */
final class CoverageCheck {

    /**
     * Something {@code feed verify} found wrong.
     *
     * @param stream the stream concerned, or null for a problem of an epoch
     * @param partition null when not known (a stream the index does not list)
     * @param position the epoch event where it shows, or null
     */
    record Problem(Kind kind, String stream, PartitionId partition, Checkpoint position, String expected, String found) {

        enum Kind {
            /** The store has the stream; the index lists none of its events. */
            MISSING_STREAM,
            /** Events of a stream are not in the index: a span starts after the next expected index, and no later span fills it. */
            GAP,
            /** Events the index already listed are listed again. */
            DUPLICATE,
            /** Events come after later ones of the same stream (they fill a gap late). */
            OUT_OF_ORDER,
            /** The store has events after the last one indexed (or the indexer is behind: run again to tell). */
            NOT_INDEXED,
            /** The index lists events the store does not have. */
            BEYOND_STORE,
            /** A span is in a partition the stream does not route to. */
            WRONG_PARTITION,
            /** An epoch event this version cannot read, or epochs that do not end where the index says. */
            BAD_EPOCH
        }
    }

    /** One stream as indexed so far: the next index expected, and holes left by spans that started late. */
    private static final class Coverage {
        final PartitionId partition;
        long next;
        final TreeMap<Long, Hole> holes = new TreeMap<>();

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

    CoverageCheck(int partitions) {
        this.partitions = partitions;
    }

    /** The next span of partition {@code p}, in the order the feed lists them. */
    void span(PartitionId p, Checkpoint at, Span s) {
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
            Map.Entry<Long, Hole> hole = c.holes.floorEntry(i);
            if (hole != null && i < hole.getValue().end()) {
                long fillEnd = Math.min(to, hole.getValue().end());
                problems.add(new Problem(Problem.Kind.OUT_OF_ORDER, stream.value(), p, at,
                        range(i, fillEnd) + " before index " + hole.getValue().end() + " (listed at " + hole.getValue().at().display() + ")",
                        range(i, fillEnd) + " after it"));
                splitHole(c, hole.getKey(), hole.getValue(), i, fillEnd);
                i = fillEnd;
            } else {
                Map.Entry<Long, Hole> nextHole = c.holes.higherEntry(i);
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
     * @param recheck a stream's version read now, for one indexed beyond what the scan saw; null when it does not exist
     */
    List<Problem> finish(Map<StreamName, Long> storeVersions, Function<StreamName, Long> recheck) {
        List<Problem> out = new ArrayList<>(problems);
        for (Map.Entry<StreamName, Coverage> e : streams.entrySet()) {
            Coverage c = e.getValue();
            for (Map.Entry<Long, Hole> h : c.holes.entrySet()) {
                long end = h.getValue().end();
                out.add(new Problem(Problem.Kind.GAP, e.getKey().value(), c.partition, h.getValue().at(),
                        "index " + h.getKey(), "index " + end + " (" + range(h.getKey(), end) + " missing)"));
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
            if (version > 0 && c == null) {
                out.add(new Problem(Problem.Kind.MISSING_STREAM, s.getKey().value(), Partitioner.route(s.getKey(), partitions), null,
                        range(0, version) + " indexed", "none"));
            } else if (c != null && c.next < version) {
                out.add(new Problem(Problem.Kind.NOT_INDEXED, s.getKey().value(), c.partition, null,
                        range(0, version) + " indexed", "up to index " + (c.next - 1) + " (" + range(c.next, version) + " missing)"));
            }
        }
        return out;
    }

    long spans() {
        return spans;
    }

    long events() {
        return events;
    }

    /** {@code events 3..5} or {@code event 3}. */
    static String range(long from, long toExclusive) {
        return toExclusive - from == 1 ? "event " + from : "events " + from + ".." + (toExclusive - 1);
    }
}
