package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.FeedFormatException;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.CommitResult;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.Lease;
import io.appendsfeed.reader.PartitionLag;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Walks one partition on its own thread: reads epoch events from the start position, hands them to
 * the scheduler (waiting when too many are outstanding), polls at the tail, backs off on errors
 * without losing its position, and commits the handled position at an interval. Stops when told,
 * when its lease is lost, or when the feed holds something it cannot read (then FAILED).
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
    private volatile Lease lease;
    private volatile boolean stop;
    private volatile boolean lost;
    private volatile boolean opened;
    private volatile boolean atTail;
    private volatile PartitionLag.State state = PartitionLag.State.STARTING;
    private volatile String error;
    private volatile Checkpoint committed;

    public PartitionRunner(ReaderContext ctx, PartitionId partition, StartPlan plan, Lease lease) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.partition = partition;
        this.plan = plan;
        this.lease = lease;
        this.backoff = new Backoff(config.retryBackoffMin(), config.retryBackoffMax());
    }

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
            stop = true;
        } catch (RuntimeException e) {
            fail("stopped on an unexpected error: " + e, e);
        } finally {
            if (lost) {
                // lose() may have run before this thread opened the partition: whoever opens it closes it
                ctx.scheduler().close(partition);
            }
        }
    }

    /** Resolves the start and opens the partition, retrying on errors; null when stopped first. */
    private Checkpoint open() throws InterruptedException {
        for (int failures = 1; !stop; failures++) {
            try {
                StartPlan.Resolved start = plan.resolve(ctx, partition);
                if (lease != null && !holdLeaseAfterStart()) {
                    return null;
                }
                List<io.appendsfeed.reader.ParkedStream> parked = ctx.parked().list(config.group());
                committed = start.committed();
                Checkpoint from = ctx.epochs().normalize(partition, start.from());
                ctx.scheduler().open(partition, from, start.notBefore(), parked);
                opened = true;
                state = PartitionLag.State.READING;
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

    /** An explicit start writes an override, which revokes the lease: take it again. */
    private boolean holdLeaseAfterStart() {
        Lease held = ctx.leases().renew(lease, config.leaseTimeout())
                .or(() -> ctx.leases().tryAcquire(config.group(), partition, config.owner(), config.leaseTimeout()))
                .orElse(null);
        if (held == null) {
            lose("another instance took the lease while this one set its start position");
            return false;
        }
        lease = held;
        return true;
    }

    private void walk(Checkpoint from) throws InterruptedException {
        Checkpoint pos = from;
        long nextCommit = System.nanoTime() + config.commitInterval().toNanos();
        int failures = 0;
        Duration tailWait = TailPoll.first(config.pollInterval());
        while (!stop) {
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
                records = ctx.epochs().read(partition, pos, config.maxReadEvents());
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
            if (records.isEmpty()) {
                atTail = true;
                pause(tailWait);
                tailWait = TailPoll.next(tailWait, config.pollInterval());
            } else {
                atTail = false;
                tailWait = TailPoll.first(config.pollInterval());
            }
        }
    }

    private void pause(Duration d) throws InterruptedException {
        synchronized (wakeup) {
            if (!stop) {
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
    public synchronized boolean commit() {
        if (lost || !opened) {
            return true;
        }
        PartitionStatus st = ctx.scheduler().status(partition);
        if (st == null || st.handled().equals(committed)) {
            return true;
        }
        try {
            CommitResult r = ctx.checkpoints().commit(config.group(), partition, st.handled(), config.owner(),
                    config.leases() ? lease : null);
            if (r instanceof CommitResult.Committed) {
                committed = st.handled();
                LOG.debug("partition {}: committed {}", partition, committed);
            } else if (r instanceof CommitResult.Behind behind) {
                lose("the stored checkpoint " + behind.stored().checkpoint() + " is ahead of " + st.handled()
                        + " (moved by " + behind.stored().committedBy() + ")");
            } else if (r instanceof CommitResult.LeaseLost leaseLost) {
                lose("the lease is now held by " + leaseLost.currentOwner());
            }
            return true;
        } catch (RuntimeException e) {
            LOG.warn("partition {}: commit of {} failed, retrying at the next interval: {}", partition, st.handled(), e.toString());
            return false;
        }
    }

    /** Stops reading at once and drops outstanding work without committing: another owner may have it now. */
    public void lose(String why) {
        if (!lost) {
            LOG.warn("partition {}: stopping, {}; unhandled work will be read again by whoever holds it", partition, why);
        }
        lost = true;
        state = PartitionLag.State.STOPPED;
        requestStop();
        ctx.scheduler().close(partition);
    }

    private void fail(String message, Exception e) {
        LOG.error("partition {}: {}", partition, message, e);
        error = message;
        state = PartitionLag.State.FAILED;
        stop = true;
    }

    /** Stops reading; outstanding work stays until {@link #finish()}. */
    public void requestStop() {
        stop = true;
        synchronized (wakeup) {
            wakeup.notifyAll();
        }
    }

    /** After handler calls have drained: commits, releases the lease, forgets the partition. */
    public void finish() {
        for (int attempt = 1; !commit() && attempt < FINAL_COMMIT_ATTEMPTS; attempt++) {
            try {
                Thread.sleep(backoff.after(attempt).toMillis()); // closing: nothing else to do meanwhile
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        ctx.scheduler().close(partition);
        if (lease != null && !lost) {
            try {
                ctx.leases().release(lease);
            } catch (RuntimeException e) {
                LOG.warn("partition {}: could not release the lease; it expires at {}: {}", partition, lease.expiresAt(), e.toString());
            }
        }
        if (state != PartitionLag.State.FAILED) {
            state = PartitionLag.State.STOPPED;
        }
    }

    public PartitionId partition() { return partition; }
    public Lease lease() { return lease; }
    public void lease(Lease renewed) { this.lease = renewed; }
    public boolean lost() { return lost; }
    public boolean stopped() { return stop; }
    public PartitionLag.State state() { return state; }
    public String error() { return error; }
    public Checkpoint committed() { return committed; }

    /**
     * Read to the tail (or to an epoch event it cannot read) and handled everything read; parked
     * streams count as handled.
     */
    public boolean drained() {
        PartitionStatus st = ctx.scheduler().status(partition);
        if (state == PartitionLag.State.FAILED) {
            return st == null || st.buffered() == 0;
        }
        return atTail && st != null && st.buffered() == 0;
    }

    public Instant leaseExpiry() {
        return lease == null ? null : lease.expiresAt();
    }
}
