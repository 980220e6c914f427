package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.EpochPage;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.FeedFormatException;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.FeedReaderConfig;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A runner's reading loop, on the runner's thread, while its phase is {@link RunnerPhase#READING}:
 * reads epoch events from the feed and offers them to the scheduler (waiting while too many are
 * outstanding), polls at the tail ({@link TailPoll}), backs off on read errors without losing its
 * position, and commits at the commit interval.
 */
final class PartitionWalk {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionRunner.class);

    private final ReaderContext ctx;
    private final FeedReaderConfig config;
    private final PartitionId partition;
    private final RunnerState state;
    private final Commits commits;
    private final Backoff backoff;

    PartitionWalk(ReaderContext ctx, PartitionId partition, RunnerState state, Commits commits, Backoff backoff) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.partition = partition;
        this.state = state;
        this.commits = commits;
        this.backoff = backoff;
    }

    /**
     * Walks from {@code from} until the phase is no longer READING (or the scheduler closed the partition).
     *
     * @throws FeedFormatException on an epoch event this version cannot read; nothing after it is offered
     */
    void walk(Checkpoint from) throws InterruptedException {
        Checkpoint pos = from;
        long nextCommit = System.nanoTime() + config.commitInterval().toNanos();
        int failures = 0;
        Duration tailWait = TailPoll.first(config.pollInterval());
        boolean atTail = false;
        while (state.phase() == RunnerPhase.READING) {
            if (System.nanoTime() - nextCommit >= 0) {
                commits.commit();
                nextCommit = System.nanoTime() + config.commitInterval().toNanos();
                continue;
            }
            ctx.scheduler().awaitCapacity(partition, config.maxBufferedEpochEvents(), config.pollInterval());
            PartitionStatus st = ctx.scheduler().status(partition);
            if (st == null || st.buffered() >= config.maxBufferedEpochEvents()) {
                continue;
            }
            if (atTail && ctx.scheduler().endsAtTail()) {
                // a catch-up run ends at the tail it found: a poll could only find the next run's events, and
                // would pay for the epoch's Tip (a Lambda reactor, once per invocation and partition). Waits
                // for what was read to be handled, then for the run to end, a poll interval at a time
                if (st.buffered() > 0) {
                    ctx.scheduler().awaitCapacity(partition, 1, config.pollInterval());
                } else {
                    state.pause(config.pollInterval());
                }
                continue;
            }
            if (atTail && ctx.scheduler().busyWith(partition)) {
                // at the tail, what was read still waiting and every handler busy: what a read found could
                // not start sooner, and the read would pay for the epoch's Tip (each poll interval of a
                // catch-up's last stretch, before). Waits for a free handler, a poll interval at most
                // between the loop's other duties (commits, a change of phase)
                ctx.scheduler().awaitNotBusyWith(partition, config.pollInterval());
                continue;
            }
            EpochPage page;
            try {
                page = ctx.feed().read(partition, pos, config.maxReadEvents());
                failures = 0;
            } catch (FeedFormatException e) {
                throw e;
            } catch (RuntimeException e) {
                failures++;
                Duration wait = backoff.after(failures);
                LOG.warn("partition {}: reading at {} failed (attempt {}), retrying in {} ms: {}", partition, pos, failures,
                        wait.toMillis(), e.toString());
                state.pause(wait);
                continue;
            }
            if (!page.records().isEmpty()) {
                if (!ctx.scheduler().offerAll(partition, page.records())) {
                    return; // the partition was closed under us (lease lost)
                }
                pos = page.records().get(page.records().size() - 1).next();
            }
            // a read that took the tail with it waits as an empty one would: reading again at once
            // could only find nothing, and would pay for the epoch's Tip to say so
            boolean tail = page.tail();
            atTail = tail;
            if (state.get().atTail() != tail) {
                state.update(s -> s.withAtTail(tail));
            }
            if (!page.records().isEmpty()) {
                tailWait = TailPoll.first(config.pollInterval());
            }
            if (tail) {
                state.pause(tailWait);
                // while what was read is still being handled, a read of the tail could only queue more
                // behind it: wait for it to be handled first (at most the poll interval), so that a
                // partition finishing a catch-up does not pay for its Tip every few tens of milliseconds
                ctx.scheduler().awaitCapacity(partition, 1, config.pollInterval());
                tailWait = TailPoll.next(tailWait, config.pollInterval());
            }
        }
    }
}
