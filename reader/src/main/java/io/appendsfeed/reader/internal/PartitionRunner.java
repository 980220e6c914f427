package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.FeedFormatException;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.Lease;
import io.appendsfeed.reader.ParkedStream;
import io.appendsfeed.reader.PartitionLag;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one partition on its own thread, from opening to {@link RunnerPhase#STOPPED}: resolves the
 * start and opens the partition in the scheduler ({@link #run}), walks the feed
 * ({@link PartitionWalk}), then commits and releases as its way of stopping requires
 * ({@link Commits}). Every checkpoint and lease write of the partition happens on this thread.
 *
 * <p>Its state is a {@link RunnerState}: phase changes follow the table in
 * {@link RunnerPhase#mayBecome}, in one place. Other threads (the coordinator's ticker,
 * {@code close()}, callers of {@code lag()}) read snapshots and send commands ({@link #lose},
 * {@link #handOver}, {@link #close}, {@link #renewed}); they write no field of the runner.
 */
public final class PartitionRunner implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionRunner.class);

    private final ReaderContext ctx;
    private final FeedReaderConfig config;
    private final PartitionId partition;
    private final StartPlan plan;
    private final Backoff backoff;
    private final RunnerState state;
    private final Commits commits;

    /**
     * @param lease the lease held on the partition, or null without leases
     * @param handlersStopped counted down by the reader's close once no handler call runs any more:
     *        a closing runner commits after that
     */
    public PartitionRunner(ReaderContext ctx, PartitionId partition, StartPlan plan, Lease lease, CountDownLatch handlersStopped) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.partition = partition;
        this.plan = plan;
        this.backoff = new Backoff(config.retryBackoffMin(), config.retryBackoffMax());
        this.state = new RunnerState(partition, ctx.scheduler(), RunnerSnapshot.opening(lease));
        this.commits = new Commits(ctx, partition, state, backoff, handlersStopped);
    }

    // ---- commands from other threads

    /** Stops reading at once and drops outstanding work without committing: another owner may have it now. */
    public void lose(String why) {
        state.lose(why);
    }

    /** Hands the partition to another instance: finish what is buffered (bounded), commit, release the lease. */
    public boolean handOver() {
        return state.move(RunnerPhase.HANDING_OVER, "the group rebalances");
    }

    /** Stops reading; commits and releases once handler calls have stopped. */
    public void close() {
        state.move(RunnerPhase.CLOSING, "the reader closes");
    }

    /** The coordinator renewed the lease: kept when it is the same lease (token) and still held. */
    public void renewed(Lease lease) {
        state.update(s -> s.lease() != null && s.lease().token().equals(lease.token())
                && s.phase() != RunnerPhase.LOST && s.phase() != RunnerPhase.STOPPED ? s.withLease(lease) : s);
    }

    // ---- what other threads read

    public RunnerSnapshot snapshot() { return state.get(); }
    public PartitionId partition() { return partition; }
    public PartitionLag.State state() { return state.get().state(); }

    /** Read to the tail (or stopped on what it cannot read) and handled everything read; parked streams count as handled. */
    public boolean drained() {
        RunnerSnapshot s = state.get();
        PartitionStatus st = ctx.scheduler().status(partition);
        if (s.phase() == RunnerPhase.FAILED) {
            return st == null || st.buffered() == 0;
        }
        return s.phase() == RunnerPhase.READING && s.atTail() && st != null && st.buffered() == 0;
    }

    // ---- the runner's thread

    @Override
    public void run() {
        try {
            Checkpoint from = open();
            if (from != null) {
                new PartitionWalk(ctx, partition, state, commits, backoff).walk(from);
            }
        } catch (FeedFormatException e) {
            fail("the feed holds an epoch event this version cannot read; the partition is stopped, nothing skipped: "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            fail("stopped on an unexpected error: " + e, e);
        }
        try {
            commits.windDown();
        } finally {
            // lose() may have run before this thread opened the partition: whoever opens it closes it
            ctx.scheduler().close(partition);
            state.move(RunnerPhase.STOPPED, "done");
        }
    }

    /** Resolves the start and opens the partition, retrying on errors; null when told to stop first. */
    private Checkpoint open() throws InterruptedException {
        for (int failures = 1; state.phase() == RunnerPhase.OPENING; failures++) {
            try {
                StartPlan.Outcome outcome = plan.resolve(ctx, partition, state.get().lease());
                if (outcome instanceof StartPlan.LeaseLost lost) {
                    lose("the lease went to " + lost.currentOwner() + " before this instance could set its start position");
                    return null;
                }
                StartPlan.Resolved start = (StartPlan.Resolved) outcome;
                List<ParkedStream> parked = ctx.parked().list(config.group());
                Checkpoint from = ctx.feed().normalize(partition, start.from());
                ctx.scheduler().open(partition, from, start.notBefore(), parked);
                state.update(s -> s.opened(start.committed()));
                if (!state.move(RunnerPhase.READING, "opened")) {
                    return null; // lost or closed while opening: the wind-down closes what was opened
                }
                LOG.info("partition {}: reading from {} for group {} as {}", partition, from, config.group(), config.owner());
                return from;
            } catch (FeedFormatException e) {
                throw e;
            } catch (RuntimeException e) {
                Duration wait = backoff.after(failures);
                LOG.warn("partition {}: could not start (attempt {}), retrying in {} ms: {}", partition, failures,
                        wait.toMillis(), e.toString());
                state.pause(wait);
            }
        }
        return null;
    }

    private void fail(String message, Exception e) {
        LOG.error("partition {}: {}", partition, message, e);
        state.update(s -> s.withError(message));
        state.move(RunnerPhase.FAILED, message);
    }
}
