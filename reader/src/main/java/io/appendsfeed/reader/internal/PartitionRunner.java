package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.FeedFormatException;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.CommitResult;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.Lease;
import io.appendsfeed.reader.ParkedStream;
import io.appendsfeed.reader.PartitionLag;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Walks one partition on its own thread: reads epoch events from the start position, hands them to
 * the scheduler (waiting when too many are outstanding), polls at the tail, backs off on errors
 * without losing its position, and commits the handled position at an interval.
 *
 * <p>Its state is one immutable {@link RunnerSnapshot}, changed only by compare-and-set in
 * {@link #update}; its {@link RunnerPhase} changes only in {@link #move}, which refuses transitions the
 * table there does not allow. Other threads (the coordinator's ticker, {@code close()}, callers of
 * {@code lag()}) read snapshots and send commands ({@link #lose}, {@link #handOver},
 * {@link #close}, {@link #renewed}); every checkpoint and lease write of the partition happens on
 * this runner's thread, which ends in {@link RunnerPhase#STOPPED}.
 */
public final class PartitionRunner implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionRunner.class);

    private static final int FINAL_COMMIT_ATTEMPTS = 4;

    private final ReaderContext ctx;
    private final FeedReaderConfig config;
    private final PartitionId partition;
    private final StartPlan plan;
    private final Backoff backoff;
    private final Object wakeup = new Object();
    private final AtomicReference<RunnerSnapshot> snapshot;
    /** Counted down by {@code close()} once no handler call runs any more; set with {@link RunnerPhase#CLOSING}. */
    private volatile CountDownLatch handlersStopped;

    public PartitionRunner(ReaderContext ctx, PartitionId partition, StartPlan plan, Lease lease) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.partition = partition;
        this.plan = plan;
        this.snapshot = new AtomicReference<>(new RunnerSnapshot(RunnerPhase.OPENING, lease, null, false, false, null));
        this.backoff = new Backoff(config.retryBackoffMin(), config.retryBackoffMax());
    }

    // ---- the one place state changes

    private RunnerSnapshot update(UnaryOperator<RunnerSnapshot> change) {
        RunnerSnapshot next = snapshot.updateAndGet(change);
        ctx.scheduler().signal(); // whoever waits for progress (runUntilCaughtUp) looks again
        return next;
    }

    /** @return whether the phase is now {@code to} (false when the current phase may not become it) */
    private boolean move(RunnerPhase to, String why) {
        RunnerSnapshot before = snapshot.getAndUpdate(s -> s.phase().mayBecome(to) ? s.with(to) : s);
        boolean moved = before.phase().mayBecome(to);
        if (moved) {
            LOG.debug("partition {}: {} -> {} ({})", partition, before.phase(), to, why);
            synchronized (wakeup) {
                wakeup.notifyAll();
            }
            ctx.scheduler().signal();
        }
        return moved;
    }

    // ---- commands from other threads

    /** Stops reading at once and drops outstanding work without committing: another owner may have it now. */
    public void lose(String why) {
        if (move(RunnerPhase.LOST, why)) {
            LOG.warn("partition {}: stopping, {}; unhandled work will be read again by whoever holds it", partition, why);
            ctx.scheduler().close(partition); // in-flight outcomes no longer count
        }
    }

    /** Hands the partition to another instance: finish what is buffered (bounded), commit, release the lease. */
    public boolean handOver() {
        return move(RunnerPhase.HANDING_OVER, "the group rebalances");
    }

    /** Stops reading; commits and releases once {@code handlersStopped} is counted down. */
    public void close(CountDownLatch handlersStopped) {
        this.handlersStopped = handlersStopped;
        move(RunnerPhase.CLOSING, "the reader closes");
    }

    /** The coordinator renewed the lease: kept when it is the same lease (token) and still held. */
    public void renewed(Lease lease) {
        update(s -> s.lease() != null && s.lease().token().equals(lease.token())
                && s.phase() != RunnerPhase.LOST && s.phase() != RunnerPhase.STOPPED
                ? new RunnerSnapshot(s.phase(), lease, s.committed(), s.opened(), s.atTail(), s.error()) : s);
    }

    public RunnerSnapshot snapshot() { return snapshot.get(); }
    public PartitionId partition() { return partition; }
    public PartitionLag.State state() { return snapshot.get().state(); }

    /** Read to the tail (or stopped on what it cannot read) and handled everything read; parked streams count as handled. */
    public boolean drained() {
        RunnerSnapshot s = snapshot.get();
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
                walk(from);
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
            windDown();
        } finally {
            // lose() may have run before this thread opened the partition: whoever opens it closes it
            ctx.scheduler().close(partition);
            move(RunnerPhase.STOPPED, "done");
        }
    }

    /** Resolves the start and opens the partition, retrying on errors; null when told to stop first. */
    private Checkpoint open() throws InterruptedException {
        for (int failures = 1; snapshot.get().phase() == RunnerPhase.OPENING; failures++) {
            try {
                StartPlan.Outcome outcome = plan.resolve(ctx, partition, snapshot.get().lease());
                if (outcome instanceof StartPlan.LeaseLost lost) {
                    lose("the lease went to " + lost.currentOwner() + " before this instance could set its start position");
                    return null;
                }
                StartPlan.Resolved start = (StartPlan.Resolved) outcome;
                List<ParkedStream> parked = ctx.parked().list(config.group());
                Checkpoint from = ctx.feed().normalize(partition, start.from());
                ctx.scheduler().open(partition, from, start.notBefore(), parked);
                update(s -> new RunnerSnapshot(s.phase(), s.lease(), start.committed(), true, false, s.error()));
                if (!move(RunnerPhase.READING, "opened")) {
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
                pause(wait);
            }
        }
        return null;
    }

    private void walk(Checkpoint from) throws InterruptedException {
        Checkpoint pos = from;
        long nextCommit = System.nanoTime() + config.commitInterval().toNanos();
        int failures = 0;
        Duration tailWait = TailPoll.first(config.pollInterval());
        while (snapshot.get().phase() == RunnerPhase.READING) {
            if (System.nanoTime() - nextCommit >= 0) {
                commit();
                nextCommit = System.nanoTime() + config.commitInterval().toNanos();
                continue;
            }
            ctx.scheduler().awaitCapacity(partition, config.maxBufferedEpochEvents(), config.pollInterval());
            PartitionStatus st = ctx.scheduler().status(partition);
            if (st == null || st.buffered() >= config.maxBufferedEpochEvents()) {
                continue;
            }
            List<EpochRecord> records;
            try {
                records = ctx.feed().read(partition, pos, config.maxReadEvents());
                failures = 0;
            } catch (FeedFormatException e) {
                throw e;
            } catch (RuntimeException e) {
                failures++;
                Duration wait = backoff.after(failures);
                LOG.warn("partition {}: reading at {} failed (attempt {}), retrying in {} ms: {}", partition, pos, failures,
                        wait.toMillis(), e.toString());
                pause(wait);
                continue;
            }
            for (EpochRecord r : records) {
                if (!ctx.scheduler().offer(partition, r)) {
                    return; // the partition was closed under us (lease lost)
                }
                pos = r.next();
            }
            boolean tail = records.isEmpty();
            if (snapshot.get().atTail() != tail) {
                update(s -> new RunnerSnapshot(s.phase(), s.lease(), s.committed(), s.opened(), tail, s.error()));
            }
            if (tail) {
                pause(tailWait);
                tailWait = TailPoll.next(tailWait, config.pollInterval());
            } else {
                tailWait = TailPoll.first(config.pollInterval());
            }
        }
    }

    /** After reading stopped: what each way of stopping owes the group. */
    private void windDown() {
        try {
            while (snapshot.get().phase() == RunnerPhase.FAILED) {
                commit(); // what was handled before the failure still counts
                pause(config.commitInterval());
            }
            switch (snapshot.get().phase()) {
                case HANDING_OVER -> {
                    // the batch in hand is handled first (a close meanwhile cuts the wait short)
                    boolean drained = ctx.scheduler().awaitUntil(() -> {
                        PartitionStatus st = ctx.scheduler().status(partition);
                        return st == null || st.buffered() == 0 || snapshot.get().phase() != RunnerPhase.HANDING_OVER;
                    }, config.shutdownTimeout());
                    if (!drained) {
                        LOG.warn("partition {}: handing over with work still outstanding after {}; it is read again by the next"
                                + " holder", partition, config.shutdownTimeout());
                    }
                    finish();
                }
                case CLOSING -> {
                    CountDownLatch gate = handlersStopped;
                    if (gate != null && !gate.await(config.shutdownTimeout().multipliedBy(2).toMillis(), TimeUnit.MILLISECONDS)) {
                        LOG.warn("partition {}: handler calls did not stop in time; committing what is handled", partition);
                    }
                    finish();
                }
                default -> { } // LOST: nothing of ours to commit or release; OPENING/READING cannot reach here but by a lost slot
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            finish();
        }
    }

    private void pause(Duration d) throws InterruptedException {
        synchronized (wakeup) {
            RunnerPhase p = snapshot.get().phase();
            if (p == RunnerPhase.OPENING || p == RunnerPhase.READING || p == RunnerPhase.FAILED) {
                wakeup.wait(Math.max(1, d.toMillis()));
            }
        }
    }

    /**
     * Commits the handled position if it moved. On a refusal the partition is given up (it may be
     * taken again).
     *
     * @return false when the commit failed on an error and should be tried again
     */
    private boolean commit() {
        RunnerSnapshot s = snapshot.get();
        if (s.phase() == RunnerPhase.LOST || !s.opened()) {
            return true;
        }
        PartitionStatus st = ctx.scheduler().status(partition);
        if (st == null || st.handled().equals(s.committed())) {
            return true;
        }
        try {
            CommitResult r = ctx.checkpoints().commit(config.group(), partition, st.handled(), config.owner(),
                    config.leases() ? s.lease() : null);
            if (r instanceof CommitResult.Committed) {
                update(x -> new RunnerSnapshot(x.phase(), x.lease(), st.handled(), x.opened(), x.atTail(), x.error()));
                LOG.debug("partition {}: committed {}", partition, st.handled());
            } else if (r instanceof CommitResult.Behind behind) {
                lose("the stored checkpoint " + behind.stored().checkpoint() + " is ahead of " + st.handled()
                        + " (moved by " + behind.stored().committedBy() + ")");
            } else if (r instanceof CommitResult.LeaseLost leaseLost) {
                lose("the lease is now held by " + leaseLost.currentOwner());
            }
            return true;
        } catch (RuntimeException e) {
            LOG.warn("partition {}: commit of {} failed, retrying: {}", partition, st.handled(), e.toString());
            return false;
        }
    }

    /** Handler calls have stopped (or drained): commits, forgets the partition, releases the lease. */
    private void finish() {
        for (int attempt = 1; !commit() && attempt < FINAL_COMMIT_ATTEMPTS; attempt++) {
            synchronized (wakeup) {
                try {
                    // closing: nothing else to do meanwhile. At least 1 ms: a jittered backoff can round to 0,
                    // and wait(0) would wait forever (that leaked the runner threads of failing commits)
                    wakeup.wait(Math.max(1, backoff.after(attempt).toMillis()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        ctx.scheduler().close(partition);
        RunnerSnapshot s = snapshot.get();
        boolean ours = s.phase() == RunnerPhase.CLOSING || s.phase() == RunnerPhase.HANDING_OVER;
        // STOPPED before the release: once another instance can take the lease, this one no longer lists the partition
        if (move(RunnerPhase.STOPPED, "committed") && ours && s.lease() != null) {
            try {
                ctx.leases().release(s.lease());
                LOG.info("partition {}: released for group {} by {}", partition, config.group(), config.owner());
            } catch (RuntimeException e) {
                LOG.warn("partition {}: could not release the lease; it expires at {}: {}", partition, s.lease().expiresAt(),
                        e.toString());
            }
        }
    }

    private void fail(String message, Exception e) {
        LOG.error("partition {}: {}", partition, message, e);
        update(s -> new RunnerSnapshot(s.phase(), s.lease(), s.committed(), s.opened(), s.atTail(), message));
        move(RunnerPhase.FAILED, message);
    }
}
