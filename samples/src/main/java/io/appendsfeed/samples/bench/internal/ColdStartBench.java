package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.model.feed.EpochLimits;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.SourceSpan;
import java.lang.ref.Reference;
import java.util.List;

/**
 * Scenario 4: a fresh indexer over an index whose feed already holds N events: the time from
 * {@link Indexer#start} to the end of its first ingest (a span continuing a stream of the active
 * epoch, so that the whole active epoch must be folded first), the read units that cost, and the
 * heap the ready indexer holds (used heap after full collections, before and after).
 */
public final class ColdStartBench {

    /**
     * @param label the scenario's nominal size, e.g. {@code 1M}, and how it was scaled in quick mode
     * @param limits {@code default} (2 MiB epochs) or {@code one epoch} (limits raised to hold every event)
     * @param epochs epochs the events span (the last is the active one)
     * @param buildEventsPerSecond how fast the feed was built through {@code ingestSpans} (batches of 5,000 events)
     */
    public record Result(String label, String limits, long events, int streams, int epochs, long activeEpochEvents,
                         long activeEpochBytes, double seconds, double readUnits, long heapBytes,
                         double buildSeconds, double buildEventsPerSecond) {}

    private ColdStartBench() {
    }

    /** @throws IllegalStateException when the first ingest does not index its one event */
    public static Result run(LocalDynamo local, SyntheticFeed.Built feed, EpochLimits limits, String label) {
        CapacityTally tally = new CapacityTally();
        IndexerConfig config = IndexerConfig.builder(feed.indexTable()).limits(limits).meter(tally).build();
        List<SourceSpan> first = List.of(SourceSpan.of(feed.next(), "cold-start"));
        long before = Heap.usedAfterGc();
        long start = System.nanoTime();
        Indexer indexer = Indexer.start(local.dynamo(), config);
        BatchOutcome o = indexer.ingestSpans(first);
        double seconds = (System.nanoTime() - start) / 1e9;
        long after = Heap.usedAfterGc();
        Reference.reachabilityFence(indexer);
        if (!o.complete() || o.acceptedEvents() != 1) {
            throw new IllegalStateException("cold indexer's first ingest: accepted " + o.acceptedEvents() + ", " + o.errors());
        }
        return new Result(label, feed.limits(), feed.events(), feed.streams(), feed.activeEpoch() + 1,
                feed.activeEpochEvents(), feed.activeEpochBytes(), seconds, tally.readUnits(), after - before,
                feed.seconds(), feed.events() / feed.seconds());
    }
}
