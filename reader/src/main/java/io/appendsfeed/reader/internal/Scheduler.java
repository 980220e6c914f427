package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.EpochRecord;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.ParkedStreams.ParkedStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.retries.api.BackoffStrategy;

/**
 * Hands the streams of submitted epoch events to the handler: per stream in order and one call at a
 * time, streams in parallel, a failing stream retried with backoff (then parked) while the others go
 * on. The handled position moves only past work completed together with everything before it.
 *
 * <p>State is guarded by this object's monitor, on which everyone waits ({@link #awaitUntil}); no I/O
 * is done holding it.
 */
public final class Scheduler {

    private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);
    /** Streams whose reached index is remembered once idle, to skip redelivered events. */
    private static final int REMEMBERED_POSITIONS = 100_000;

    /** The checkpoint to commit, the index time of the oldest unhandled epoch event (or null), the streams retrying. */
    public record Status(Checkpoint handled, Instant oldestUnhandled, int failingStreams) {}

    private final StreamCall call;
    private final int maxConcurrent;
    private final int maxBatchEvents;
    private final BackoffStrategy backoff;
    private final ExecutorService workers;
    private final ScheduledExecutorService timers;
    private final Map<PartitionId, Progress> open = new HashMap<>();
    /** Streams with a call in flight, whatever opening it came from: never two at once for one stream. */
    private final Set<StreamName> inFlight = new HashSet<>();
    private final ArrayDeque<StreamState> ready = new ArrayDeque<>();
    /** How far idle streams are handled; the least recently used are forgotten (then delivered again, as at least once allows). */
    private final Map<StreamName, Long> reached = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<StreamName, Long> eldest) {
            return size() > REMEMBERED_POSITIONS;
        }
    };
    /** Written under the lock; read without it by {@link #released}. */
    private volatile long parkSeq;
    private int runningJobs;
    private boolean dispatching = true;
    private boolean endsAtTail;

    public Scheduler(StreamCall call, int maxConcurrent, int maxBatchEvents, BackoffStrategy backoff, ExecutorService workers,
                     ScheduledExecutorService timers) {
        this.call = call;
        this.maxConcurrent = maxConcurrent;
        this.maxBatchEvents = maxBatchEvents;
        this.backoff = backoff;
        this.workers = workers;
        this.timers = timers;
    }

    /** Starts tracking a partition from {@code from}; {@code parked} are the group's parked streams. */
    public synchronized void open(PartitionId p, Checkpoint from, Instant notBefore, List<ParkedStream> parked) {
        if (open.containsKey(p)) {
            throw new IllegalStateException("partition " + p + " is already open");
        }
        Progress progress = new Progress(p, from, notBefore);
        open.put(p, progress);
        for (ParkedStream ps : parked) {
            if (ps.partition().equals(p)) {
                stateOf(progress, ps.stream()).park(ps, ++parkSeq);
            }
        }
    }

    /** Forgets a partition (lease lost, or closing): its outstanding work is dropped, running calls finish unheeded. */
    public synchronized void close(PartitionId p) {
        Progress progress = open.remove(p);
        if (progress != null) {
            progress.closed = true;
            notifyAll();
        }
    }

    /**
     * Adds epoch events that follow the partition's last one and starts calls.
     *
     * @return false when the partition is not open (it was closed: the caller must stop)
     */
    public boolean submit(PartitionId p, List<EpochRecord> records) {
        List<Map<StreamName, List<FeedEvent>>> decoded = records.stream().map(r -> call.filter.spans(r.event())).toList();
        synchronized (this) {
            Progress progress = open.get(p);
            if (progress == null) {
                return false;
            }
            for (int k = 0; k < records.size(); k++) {
                EpochRecord r = records.get(k);
                Progress.Entry entry = progress.add(r.position(), r.next(), r.indexedAt(), 1); // held while its spans are added
                for (Map.Entry<StreamName, List<FeedEvent>> e : decoded.get(k).entrySet()) {
                    StreamState s = stateOf(progress, e.getKey());
                    if (s.add(entry, e.getValue())) {
                        progress.hold(entry);
                    }
                    after(s);
                }
                progress.complete(entry);
            }
            pump();
            return true;
        }
    }

    /** Epoch events read and not yet fully handled, or -1 when the partition is not open. */
    public synchronized int buffered(PartitionId p) {
        Progress progress = open.get(p);
        return progress == null ? -1 : progress.buffered();
    }

    /**
     * Whether a partition may read: fewer than {@code maxBuffered} epoch events outstanding, and at the
     * tail neither while every worker is busy nor after {@link #endAtTail}. A closed one may: its submit says so.
     */
    public synchronized boolean mayRead(PartitionId p, boolean atTail, int maxBuffered) {
        int buffered = buffered(p);
        return buffered < 0 || buffered < maxBuffered && !(atTail && (endsAtTail || buffered > 0 && runningJobs >= maxConcurrent));
    }

    /** What is handled of an open partition, or null. */
    public synchronized Status status(PartitionId p) {
        Progress progress = open.get(p);
        if (progress == null) {
            return null;
        }
        int failing = (int) progress.streams.values().stream().filter(s -> s.attempts() > 0).count();
        return new Status(progress.handled(), progress.oldestUnhandled().orElse(null), failing);
    }

    /** The reader ends once caught up: a partition read to the tail reads no further (the rest is the next run's). */
    public synchronized void endAtTail() {
        endsAtTail = true;
        notifyAll();
    }

    private StreamState stateOf(Progress progress, StreamName stream) {
        return progress.streams.computeIfAbsent(stream, x -> new StreamState(x, progress, reached.getOrDefault(x, -1L)));
    }

    /** Queues a READY stream, forgets an IDLE one (remembering how far it got). */
    private void after(StreamState s) {
        if (s.phase() == StreamState.Phase.READY && !s.queued) {
            s.queued = true;
            ready.addLast(s);
        } else if (s.phase() == StreamState.Phase.IDLE) {
            s.slot.streams.remove(s.stream);
            if (s.nextIndex() >= 0) {
                reached.put(s.stream, s.nextIndex());
            }
        }
    }

    private boolean current(StreamState s) {
        return !s.slot.closed && s.slot.streams.get(s.stream) == s;
    }

    private void pump() {
        while (dispatching && runningJobs < maxConcurrent && !ready.isEmpty()) {
            int free = maxConcurrent - runningJobs;
            // every free worker gets a job, of at most the calls one body load (BatchGetItem) serves
            int size = Math.min(BodyLoader.BATCH_GET_KEYS, Math.max(1, (ready.size() + free - 1) / free));
            List<StreamCall.Work> job = new ArrayList<>(size);
            while (job.size() < size && !ready.isEmpty()) {
                StreamState s = ready.pollFirst();
                s.queued = false;
                if (current(s) && s.phase() == StreamState.Phase.READY && inFlight.add(s.stream)) {
                    job.add(s.take(maxBatchEvents));
                } // else stale, or an earlier lease's call still runs: queued again when it completes
            }
            if (job.isEmpty()) {
                return;
            }
            runningJobs++;
            try {
                workers.execute(() -> {
                    try {
                        call.runJob(job, this::completed);
                    } finally {
                        synchronized (this) {
                            runningJobs--;
                            pump();
                            notifyAll();
                        }
                    }
                });
            } catch (RejectedExecutionException e) {
                runningJobs--;
                job.forEach(w -> inFlight.remove(w.stream()));
                LOG.debug("{} calls not dispatched, the reader is shutting down ({})", job.size(), e.toString());
                return;
            }
        }
    }

    /** How a call ended, on its worker's thread: the stream's state moves on, and what it no longer holds back is complete. */
    private synchronized void completed(StreamCall.Work w, StreamCall.Outcome o) {
        inFlight.remove(w.stream());
        Progress now = open.get(w.slot().partition);
        StreamState s = now == null ? null : now.streams.get(w.stream());
        if (s == null) {
            return; // the partition was closed meanwhile: the outcome no longer counts
        }
        if (w.slot().closed) {
            after(s); // a call of the same stream from a newer opening of its partition waited for this one
            pump();
            return; // the outcome no longer counts
        }
        if (o instanceof StreamCall.Outcome.ReplayDone) {
            LOG.info("{}: replay of the released stream is complete at index {}", w.stream(), w.replayFrom());
        }
        s.ended(w, o, o instanceof StreamCall.Outcome.Parked ? ++parkSeq : parkSeq).forEach(s.slot::complete);
        if (o instanceof StreamCall.Outcome.Failed failed) {
            Duration wait = backoff.computeDelay(s.attempts());
            // the stack trace once per run of failures
            LOG.warn("{}: handler failed (attempt {}), retrying in {} ms: {}", s.stream, s.attempts(), wait.toMillis(),
                    StreamCall.describe(failed.error()), s.attempts() == 1 ? failed.error() : null);
            try {
                timers.schedule(() -> retryDue(s), wait.toMillis(), TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                LOG.debug("{}: no retry scheduled, the reader is shutting down ({})", s.stream, e.toString());
            }
        }
        after(s);
        pump();
        notifyAll();
    }

    private synchronized void retryDue(StreamState s) {
        if (current(s) && s.retryDue()) {
            after(s);
            pump();
        }
    }

    /**
     * Replays the streams parked here but no longer in {@code stillParked} (a listing of the parked
     * store, taken without the lock held: only streams parked before the listing began count).
     */
    public void released(Supplier<Set<StreamName>> stillParked) {
        long asOf = parkSeq;
        Set<StreamName> still = stillParked.get();
        synchronized (this) {
            for (Progress progress : open.values()) {
                for (StreamState s : new ArrayList<>(progress.streams.values())) {
                    long from = still.contains(s.stream) ? -1 : s.release(asOf);
                    if (from >= 0) {
                        LOG.info("{}: released; replaying from index {}", s.stream, from);
                        after(s);
                    }
                }
            }
            pump();
        }
    }

    /** No new handler call starts after this; waits until none runs, at most {@code timeout}: false when some still run. */
    public synchronized boolean stop(Duration timeout) throws InterruptedException {
        dispatching = false;
        return awaitUntil(() -> runningJobs == 0, timeout);
    }

    /** Wakes whoever waits in {@link #awaitUntil}: something it looks at changed. */
    public synchronized void signal() {
        notifyAll();
    }

    /**
     * Waits at most {@code timeout} until {@code condition}, evaluated under this lock after each change
     * here or {@link #signal()}, so that no change is missed, holds; false when it did not.
     */
    public synchronized boolean awaitUntil(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }
}
