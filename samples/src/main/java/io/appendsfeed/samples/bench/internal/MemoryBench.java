package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.reader.CatchUpResult;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.HandlerResult;
import io.appendsfeed.reader.StartPosition;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Scenario 5: the heap of a reader walking a large feed index-only from the beginning to the tail
 * ({@code runUntilCaughtUp}, default settings), measured against the used heap after full
 * collections just before it starts. DynamoDB Local runs in the same JVM, so its own garbage from
 * answering the reads is in the sampled peak; the peak after a collection is the better measure of
 * what the reader keeps.
 */
public final class MemoryBench {

    /**
     * @param peakUsedBytes highest used heap while walking, minus the baseline (includes garbage)
     * @param peakAfterGcBytes highest heap left after a collection while walking, minus the baseline
     *                         (0 when no collection ran)
     */
    public record Result(String label, long events, int epochs, double seconds, double eventsPerSecond,
                         long baselineBytes, long peakUsedBytes, long peakAfterGcBytes, long collections) {}

    private MemoryBench() {
    }

    /**
     * @param expectedEvents events in the feed (the build's, plus any a cold-start run added)
     * @throws IllegalStateException when the reader does not catch up with every event
     */
    public static Result run(LocalDynamo local, SyntheticFeed.Built feed, long expectedEvents, String storeTable, String label) {
        AtomicLong events = new AtomicLong();
        FeedReaderConfig config = FeedReaderConfig.builder("bench-memory", feed.indexTable(), storeTable)
                .start(StartPosition.beginning()).loadBodies(false).build();
        long baseline = Heap.usedAfterGc();
        long start = System.nanoTime();
        CatchUpResult r;
        Heap.Watch watch = Heap.watch();
        try (watch) {
            r = new FeedReader(local.dynamo(), config, (stream, batch) -> {
                events.addAndGet(batch.size());
                return HandlerResult.handled();
            }).runUntilCaughtUp(Duration.ofMinutes(10));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (!r.caughtUp() || events.get() != expectedEvents) {
            throw new IllegalStateException("reader walked " + events.get() + " of " + expectedEvents + " events, caught up "
                    + r.caughtUp() + "; lag " + r.lag());
        }
        return new Result(label, events.get(), feed.activeEpoch() + 1, seconds, events.get() / seconds, baseline,
                watch.peakUsed() - baseline, Math.max(0, watch.peakAfterGc() - baseline), watch.collections());
    }
}
