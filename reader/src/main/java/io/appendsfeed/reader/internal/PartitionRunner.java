package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.EpochPage;
import io.appendsfeed.model.feed.FeedFormatException;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.CheckpointStore.CommitResult;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.LeaseStore.Lease;
import io.appendsfeed.reader.internal.RunnerSnapshot.Phase;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.retries.api.BackoffStrategy;

/**
 * Reads one partition on its own thread: opens it in the scheduler, submits what it reads, and commits
 * the handled position every commit interval and as its way of stopping requires. Every checkpoint and
 * lease write of the partition happens on this thread.
 *
 * <p>Other threads read its {@link RunnerSnapshot} and send commands; they write no field of the runner.
 * Phase changes follow {@link Phase#mayBecome}, in {@link #move} only, and signal the scheduler's
 * monitor, on which it waits; no lock is held while it does I/O.
 */
public final class PartitionRunner implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionRunner.class);
    /**
     * The first wait at the tail after new events, doubling while reads find none, up to the poll interval:
     * new events are seen within tens of milliseconds, and a quiet feed is back to one read (one Tip) per
     * poll interval within about a second.
     */
    static final Duration FIRST_TAIL_WAIT = Duration.ofMillis(25);
    private static final int FINAL_COMMIT_ATTEMPTS = 4;

    private final ReaderContext ctx;
    private final FeedReaderConfig config;
    private final Scheduler scheduler;
    private final PartitionId partition;
    private final StartPlan plan;
    private final BackoffStrategy backoff;
    private final CountDownLatch handlersStopped;
    private final AtomicReference<RunnerSnapshot> snapshot;

    /** @param handlersStopped counted down once no handler call runs any more: a closing runner commits after that */
    public PartitionRunner(ReaderContext ctx, PartitionId partition, StartPlan plan, Lease lease, CountDownLatch handlersStopped) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.scheduler = ctx.scheduler();
        this.partition = partition;
        this.plan = plan;
        this.backoff = BackoffStrategy.exponentialDelayHalfJitter(config.retryBackoffMin(), config.retryBackoffMax());
        this.handlersStopped = handlersStopped;
        this.snapshot = new AtomicReference<>(new RunnerSnapshot(Phase.OPENING, lease, null, false, null));
    }

    // ---- commands from other threads

    /** Stops reading at once and drops outstanding work without committing: another owner may have it now. */
    public void lose(String why) {
        if (move(Phase.LOST, why)) {
            LOG.warn("partition {}: stopping, {}; unhandled work will be read again by whoever holds it", partition, why);
            scheduler.close(partition); // in-flight outcomes no longer count
        }
    }

    /** Hands the partition to another instance: finish what is buffered (bounded), commit, release the lease. */
    public boolean handOver() {
        return move(Phase.HANDING_OVER, "the group rebalances");
    }

    /** Stops reading; commits and releases once handler calls have stopped. */
    public void close() {
        move(Phase.CLOSING, "the reader closes");
    }

    /** The coordinator renewed the lease: kept when it is the same lease (token) and still held. */
    public void renewed(Lease lease) {
        update(s -> s.lease() != null && s.lease().token().equals(lease.token())
                && s.phase() != Phase.LOST && s.phase() != Phase.STOPPED ? s.withLease(lease) : s);
    }

    // ---- what other threads read

    public RunnerSnapshot snapshot() { return snapshot.get(); }
    public PartitionId partition() { return partition; }

    /** Read to the tail (or stopped on what it cannot read) and handled everything read; parked streams count as handled. */
    public boolean drained() {
        RunnerSnapshot s = snapshot.get();
        int buffered = scheduler.buffered(partition);
        return s.phase() == Phase.FAILED ? buffered <= 0 : s.phase() == Phase.READING && s.atTail() && buffered == 0;
    }

    // ---- the runner's thread

    @Override
    public void run() {
        try {
            Checkpoint from = open();
            if (from != null) {
                walk(from);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            String message = e instanceof FeedFormatException ? "the feed holds an epoch event this version cannot read;"
                    + " the partition is stopped, nothing skipped: " + e.getMessage() : "stopped on an unexpected error: " + e;
            LOG.error("partition {}: {}", partition, message, e);
            update(s -> s.withError(message));
            move(Phase.FAILED, message);
        }
        windDown();
    }

    /** Resolves the start and opens the partition, retrying on errors; null when told to stop first. */
    private Checkpoint open() throws InterruptedException {
        for (int failures = 1; phase() == Phase.OPENING; failures++) {
            try {
                StartPlan.Outcome outcome = plan.resolve(ctx, partition, snapshot.get().lease());
                if (outcome instanceof StartPlan.LeaseLost lost) {
                    lose("the lease went to " + lost.currentOwner() + " before this instance could set its start position");
                    return null;
                }
                StartPlan.Resolved start = (StartPlan.Resolved) outcome;
                Checkpoint from = ctx.feed().normalize(partition, start.from());
                scheduler.open(partition, from, start.notBefore(), ctx.parked().list(config.group()));
                update(s -> s.withCommitted(start.committed()));
                if (!move(Phase.READING, "opened")) {
                    return null; // lost or closed while opening: the wind-down closes what was opened
                }
                LOG.info("partition {}: reading from {} for group {} as {}", partition, from, config.group(), config.owner());
                return from;
            } catch (FeedFormatException e) {
                throw e;
            } catch (RuntimeException e) {
                retryLater("could not start", failures, e);
            }
        }
        return null;
    }

    /**
     * Reads and submits while READING: waits while too many are outstanding, polls at the tail, backs
     * off on read errors without losing its position, and commits every commit interval.
     *
     * @throws FeedFormatException on an epoch event this version cannot read; nothing after it is submitted
     */
    private void walk(Checkpoint from) throws InterruptedException {
        Checkpoint pos = from;
        long nextCommit = System.nanoTime() + config.commitInterval().toNanos();
        Duration tailWait = tailWait(null, config.pollInterval());
        int failures = 0;
        while (phase() == Phase.READING) {
            if (System.nanoTime() - nextCommit >= 0) {
                commit();
                nextCommit = System.nanoTime() + config.commitInterval().toNanos();
            }
            boolean tail = snapshot.get().atTail(); // as the last read found it
            if (!awaitIn(Phase.READING, () -> scheduler.mayRead(partition, tail, 10 * config.maxReadEvents()),
                    config.pollInterval()) || phase() != Phase.READING) {
                continue; // the loop's other duties (a commit, a change of phase) between the waits
            }
            EpochPage page;
            try {
                page = ctx.feed().read(partition, pos, config.maxReadEvents());
                failures = 0;
            } catch (FeedFormatException e) {
                throw e;
            } catch (RuntimeException e) {
                retryLater("reading at " + pos + " failed", ++failures, e);
                continue;
            }
            if (!page.records().isEmpty()) {
                if (!scheduler.submit(partition, page.records())) {
                    return; // the partition was closed under us (lease lost)
                }
                pos = page.records().get(page.records().size() - 1).next();
                tailWait = tailWait(null, config.pollInterval());
            }
            if (tail != page.tail()) {
                update(s -> s.withAtTail(page.tail()));
            }
            if (page.tail()) {
                // reading the tail again at once, or while what was read is still being handled, could only pay
                // for the epoch's Tip to find nothing: wait for both, each at most the poll interval
                pause(tailWait);
                awaitIn(Phase.READING, () -> scheduler.buffered(partition) <= 0, config.pollInterval());
                tailWait = tailWait(tailWait, config.pollInterval());
            }
        }
    }

    /** The wait at the tail after {@code last} (null after new events), at most the poll interval. */
    static Duration tailWait(Duration last, Duration pollInterval) {
        Duration next = last == null ? FIRST_TAIL_WAIT : last.multipliedBy(2);
        return next.compareTo(pollInterval) > 0 ? pollInterval : next;
    }

    private void retryLater(String what, int failures, RuntimeException e) throws InterruptedException {
        Duration wait = backoff.computeDelay(failures);
        LOG.warn("partition {}: {} (attempt {}), retrying in {} ms: {}", partition, what, failures, wait.toMillis(), e.toString());
        pause(wait);
    }

    /**
     * Commits the handled position if it moved, fenced by the lease; on a refusal the partition is lost.
     *
     * @return false when the commit failed on an error and should be tried again
     */
    private boolean commit() {
        RunnerSnapshot s = snapshot.get();
        Scheduler.Status st = scheduler.status(partition); // null unless opened by this runner
        Checkpoint handled = st == null ? null : st.handled();
        if (s.phase() == Phase.LOST || handled == null || handled.equals(s.committed())) {
            return true;
        }
        try {
            CommitResult r = ctx.checkpoints().commit(config.group(), partition, handled, config.owner(),
                    config.leases() ? s.lease() : null);
            if (r instanceof CommitResult.Committed) {
                update(x -> x.withCommitted(handled));
            } else if (r instanceof CommitResult.Behind behind) {
                lose("the stored checkpoint " + behind.stored().checkpoint() + " is ahead of " + handled
                        + " (moved by " + behind.stored().committedBy() + ")");
            } else if (r instanceof CommitResult.LeaseLost leaseLost) {
                lose("the lease is now held by " + leaseLost.currentOwner());
            }
            return true;
        } catch (RuntimeException e) {
            LOG.warn("partition {}: commit of {} failed, retrying: {}", partition, handled, e.toString());
            return false;
        }
    }

    /**
     * What each way of stopping owes the group: a failed runner commits what was handled until told to
     * stop; a hand-over drains what was read, a close waits for handler calls to stop, and both then
     * commit and release the lease. A lost partition owes nothing.
     */
    private void windDown() {
        try {
            while (phase() == Phase.FAILED) {
                commit(); // what was handled before the failure still counts
                pause(config.commitInterval());
            }
            if (phase() == Phase.HANDING_OVER // a close cuts the wait short
                    && !awaitIn(Phase.HANDING_OVER, () -> scheduler.buffered(partition) <= 0, config.shutdownTimeout())) {
                LOG.warn("partition {}: handing over with work still outstanding after {}; it is read again by the next holder",
                        partition, config.shutdownTimeout());
            }
            if (phase() == Phase.CLOSING
                    && !handlersStopped.await(config.shutdownTimeout().multipliedBy(2).toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("partition {}: handler calls did not stop in time; committing what is handled", partition);
            }
            for (int attempt = 1; !commit() && attempt < FINAL_COMMIT_ATTEMPTS; attempt++) {
                scheduler.awaitUntil(() -> false, backoff.computeDelay(attempt)); // closing: nothing else to do meanwhile
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            commit();
        }
        scheduler.close(partition); // lose() may have run before this thread opened it: whoever opens it closes it
        RunnerSnapshot s = snapshot.get();
        boolean ours = s.phase() == Phase.CLOSING || s.phase() == Phase.HANDING_OVER;
        // STOPPED before the release: once another instance can take the lease, this one no longer lists the partition
        if (move(Phase.STOPPED, "committed") && ours && s.lease() != null) {
            try {
                ctx.checkpoints().release(s.lease());
                LOG.info("partition {}: released for group {} by {}", partition, config.group(), config.owner());
            } catch (RuntimeException e) {
                LOG.warn("partition {}: could not release the lease; it expires at {}: {}", partition, s.lease().expiresAt(),
                        e.toString());
            }
        }
    }

    // ---- state: one immutable snapshot, changed by compare-and-set; every change wakes the waits

    private Phase phase() {
        return snapshot.get().phase();
    }

    /** Changes what is known (lease, committed, at tail, error) without touching the phase. */
    private void update(UnaryOperator<RunnerSnapshot> change) {
        snapshot.updateAndGet(s -> change.apply(s).with(s.phase()));
        scheduler.signal(); // whoever waits for progress (runUntilCaughtUp) looks again
    }

    /** @return whether the phase is now {@code to} (false when the current phase may not become it) */
    private boolean move(Phase to, String why) {
        RunnerSnapshot before = snapshot.getAndUpdate(s -> s.phase().mayBecome(to) ? s.with(to) : s);
        boolean moved = before.phase().mayBecome(to);
        if (moved) {
            LOG.debug("partition {}: {} -> {} ({})", partition, before.phase(), to, why);
            scheduler.signal();
        }
        return moved;
    }

    /** Waits up to {@code d} in the current phase; a change of phase ends the wait at once. */
    private void pause(Duration d) throws InterruptedException {
        awaitIn(phase(), () -> false, d);
    }

    /** Waits up to {@code timeout} until {@code done} or the phase is no longer {@code in}: whether either holds. */
    private boolean awaitIn(Phase in, BooleanSupplier done, Duration timeout) throws InterruptedException {
        return scheduler.awaitUntil(() -> phase() != in || done.getAsBoolean(), timeout);
    }
}
