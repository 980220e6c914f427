package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.PartitionId;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A runner's state: one immutable {@link RunnerSnapshot}, changed only by compare-and-set here.
 * Its {@link RunnerPhase} changes only in {@link #move}, which refuses what the table in
 * {@link RunnerPhase#mayBecome} does not allow; every change wakes the runner's own waits
 * ({@link #pause}) and whoever waits on the scheduler for progress. No lock is held while the
 * runner does I/O: the monitor here guards only waiting and waking.
 */
final class RunnerState {

    private static final Logger LOG = LoggerFactory.getLogger(RunnerState.class);

    private final PartitionId partition;
    private final Scheduler scheduler;
    private final AtomicReference<RunnerSnapshot> snapshot;
    private final Object wakeup = new Object();

    RunnerState(PartitionId partition, Scheduler scheduler, RunnerSnapshot initial) {
        this.partition = partition;
        this.scheduler = scheduler;
        this.snapshot = new AtomicReference<>(initial);
    }

    RunnerSnapshot get() {
        return snapshot.get();
    }

    RunnerPhase phase() {
        return snapshot.get().phase();
    }

    /** Changes what is known (lease, committed, at tail, error) without touching the phase. */
    RunnerSnapshot update(UnaryOperator<RunnerSnapshot> change) {
        RunnerSnapshot next = snapshot.updateAndGet(s -> change.apply(s).with(s.phase()));
        scheduler.signal(); // whoever waits for progress (runUntilCaughtUp) looks again
        return next;
    }

    /** @return whether the phase is now {@code to} (false when the current phase may not become it) */
    boolean move(RunnerPhase to, String why) {
        RunnerSnapshot before = snapshot.getAndUpdate(s -> s.phase().mayBecome(to) ? s.with(to) : s);
        boolean moved = before.phase().mayBecome(to);
        if (moved) {
            LOG.debug("partition {}: {} -> {} ({})", partition, before.phase(), to, why);
            synchronized (wakeup) {
                wakeup.notifyAll();
            }
            scheduler.signal();
        }
        return moved;
    }

    /** Stops reading at once and drops outstanding work without committing: another owner may have it now. */
    void lose(String why) {
        if (move(RunnerPhase.LOST, why)) {
            LOG.warn("partition {}: stopping, {}; unhandled work will be read again by whoever holds it", partition, why);
            scheduler.close(partition); // in-flight outcomes no longer count
        }
    }

    /** Waits up to {@code d} while the runner is still opening, reading or failed; a phase change ends the wait at once. */
    void pause(Duration d) throws InterruptedException {
        synchronized (wakeup) {
            RunnerPhase p = snapshot.get().phase();
            if (p == RunnerPhase.OPENING || p == RunnerPhase.READING || p == RunnerPhase.FAILED) {
                wakeup.wait(atLeastOneMilli(d));
            }
        }
    }

    /** Waits up to {@code d} whatever the phase (a closing runner between commit attempts). */
    void sleep(Duration d) throws InterruptedException {
        synchronized (wakeup) {
            wakeup.wait(atLeastOneMilli(d));
        }
    }

    /** A jittered backoff can round to 0 ms, and wait(0) would wait forever (that once leaked the threads of failing commits). */
    private static long atLeastOneMilli(Duration d) {
        return Math.max(1, d.toMillis());
    }
}
