package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.CommitResult;
import io.appendsfeed.reader.FeedReaderConfig;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A runner's checkpoint and lease writes, all on the runner's thread: the commit of the handled
 * position (fenced by the lease), and after reading stopped what each way of stopping owes the
 * group (a hand-over drains the batch in hand, a close waits for handler calls to stop; both then
 * commit and release the lease; a lost partition owes nothing).
 */
final class Commits {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionRunner.class);

    private static final int FINAL_COMMIT_ATTEMPTS = 4;

    private final ReaderContext ctx;
    private final FeedReaderConfig config;
    private final PartitionId partition;
    private final RunnerState state;
    private final Backoff backoff;
    private final CountDownLatch handlersStopped;

    /** @param handlersStopped counted down by the reader's close once no handler call runs any more */
    Commits(ReaderContext ctx, PartitionId partition, RunnerState state, Backoff backoff, CountDownLatch handlersStopped) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.partition = partition;
        this.state = state;
        this.backoff = backoff;
        this.handlersStopped = handlersStopped;
    }

    /**
     * Commits the handled position if it moved. On a refusal the partition is given up (it may be
     * taken again).
     *
     * @return false when the commit failed on an error and should be tried again
     */
    boolean commit() {
        RunnerSnapshot s = state.get();
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
                state.update(x -> x.withCommitted(st.handled()));
                LOG.debug("partition {}: committed {}", partition, st.handled());
            } else if (r instanceof CommitResult.Behind behind) {
                state.lose("the stored checkpoint " + behind.stored().checkpoint() + " is ahead of " + st.handled()
                        + " (moved by " + behind.stored().committedBy() + ")");
            } else if (r instanceof CommitResult.LeaseLost leaseLost) {
                state.lose("the lease is now held by " + leaseLost.currentOwner());
            }
            return true;
        } catch (RuntimeException e) {
            LOG.warn("partition {}: commit of {} failed, retrying: {}", partition, st.handled(), e.toString());
            return false;
        }
    }

    /** After reading stopped: what each way of stopping owes the group. */
    void windDown() {
        try {
            while (state.phase() == RunnerPhase.FAILED) {
                commit(); // what was handled before the failure still counts
                state.pause(config.commitInterval());
            }
            switch (state.phase()) {
                case HANDING_OVER -> {
                    // the batch in hand is handled first (a close meanwhile cuts the wait short)
                    boolean drained = ctx.scheduler().awaitUntil(() -> {
                        PartitionStatus st = ctx.scheduler().status(partition);
                        return st == null || st.buffered() == 0 || state.phase() != RunnerPhase.HANDING_OVER;
                    }, config.shutdownTimeout());
                    if (!drained) {
                        LOG.warn("partition {}: handing over with work still outstanding after {}; it is read again by the next"
                                + " holder", partition, config.shutdownTimeout());
                    }
                    finish();
                }
                case CLOSING -> {
                    if (!handlersStopped.await(config.shutdownTimeout().multipliedBy(2).toMillis(), TimeUnit.MILLISECONDS)) {
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

    /** Handler calls have stopped (or drained): commits, forgets the partition, releases the lease. */
    private void finish() {
        for (int attempt = 1; !commit() && attempt < FINAL_COMMIT_ATTEMPTS; attempt++) {
            try {
                state.sleep(backoff.after(attempt)); // closing: nothing else to do meanwhile
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        ctx.scheduler().close(partition);
        RunnerSnapshot s = state.get();
        boolean ours = s.phase() == RunnerPhase.CLOSING || s.phase() == RunnerPhase.HANDING_OVER;
        // STOPPED before the release: once another instance can take the lease, this one no longer lists the partition
        if (state.move(RunnerPhase.STOPPED, "committed") && ours && s.lease() != null) {
            try {
                ctx.leases().release(s.lease());
                LOG.info("partition {}: released for group {} by {}", partition, config.group(), config.owner());
            } catch (RuntimeException e) {
                LOG.warn("partition {}: could not release the lease; it expires at {}: {}", partition, s.lease().expiresAt(),
                        e.toString());
            }
        }
    }
}
