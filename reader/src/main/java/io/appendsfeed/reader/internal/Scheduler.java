package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.EpochRecord;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.FeedEvent;
import io.appendsfeed.reader.ParkedStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands the streams of the epoch events read to the handler: per stream in order and one call at
 * a time, streams in parallel up to a limit, a failing stream retried with backoff (and parked
 * after too many tries) while the others go on. Tracks per partition what is handled, so that
 * the checkpoint only moves past work completed together with everything before it.
 *
 * <p>State lives in {@link StreamState}s (each owning its transitions) and {@link Slot}s, guarded
 * by this object's monitor; nothing here does I/O while holding it. Ready streams go to the workers
 * in jobs of several {@link Work}s: a worker loads the bodies of a whole job at once (one
 * {@code BatchGetItem} for the Tips) and then makes its calls one by one, so that a thread hand-off
 * and a store request serve many streams. Jobs are sized so that every free worker gets one.
 */
public final class Scheduler {

    private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);
    /** Streams whose reached index is remembered once idle, to skip redelivered events. */
    private static final int REMEMBERED_POSITIONS = 100_000;
    /** Most calls in one job: the keys of one {@code BatchGetItem}. */
    static final int MAX_JOB_CALLS = 100;

    private final StreamCall call;
    private final SpanFilter spans;
    private final int maxConcurrent;
    private final int maxBatchEvents;
    private final int parkAfterAttempts;
    private final Backoff backoff;
    private final ExecutorService workers;
    private final ScheduledExecutorService timers;
    private final Map<PartitionId, Slot> slots = new HashMap<>();
    /** Streams with a call in flight, whatever slot it came from: never two at once for one stream. */
    private final Set<StreamName> inFlight = new HashSet<>();
    private final ArrayDeque<StreamState> ready = new ArrayDeque<>();
    private final ReachedPositions positions = new ReachedPositions(REMEMBERED_POSITIONS);
    private long parkSeq;
    private int runningJobs;
    private boolean dispatching = true;

    public Scheduler(StreamCall call, EventFilter filter, int maxConcurrent, int maxBatchEvents, int parkAfterAttempts,
                     Backoff backoff, ExecutorService workers, ScheduledExecutorService timers) {
        this.call = call;
        this.spans = new SpanFilter(filter);
        this.maxConcurrent = maxConcurrent;
        this.maxBatchEvents = maxBatchEvents;
        this.parkAfterAttempts = parkAfterAttempts;
        this.backoff = backoff;
        this.workers = workers;
        this.timers = timers;
    }

    /**
     * Starts tracking a partition from {@code from}; {@code parked} are the group's parked streams.
     *
     * @throws IllegalStateException when the partition is open already (a caller's bug)
     */
    public synchronized void open(PartitionId p, Checkpoint from, Instant notBefore, List<ParkedStream> parked) {
        if (slots.containsKey(p)) {
            throw new IllegalStateException("partition " + p + " is already open");
        }
        Slot slot = new Slot(p, new Progress(from), notBefore);
        slots.put(p, slot);
        for (ParkedStream ps : parked) {
            if (ps.partition().equals(p)) {
                StreamState s = new StreamState(ps.stream(), slot, positions.get(ps.stream()));
                s.parkedBefore(ps, ++parkSeq);
                slot.streams.put(ps.stream(), s);
            }
        }
    }

    public synchronized boolean isOpen(PartitionId p) {
        return slots.containsKey(p);
    }

    /** Forgets a partition (lease lost, or closing): its outstanding work is dropped, running calls finish unheeded. */
    public synchronized void close(PartitionId p) {
        Slot slot = slots.remove(p);
        if (slot != null) {
            slot.closed = true;
            notifyAll();
        }
    }

    /**
     * Adds the spans of one epoch event; they must follow the partition's last one.
     *
     * @return false when the partition is not open (it was closed: the caller must stop)
     */
    public boolean offer(PartitionId p, EpochRecord r) {
        return offerAll(p, List.of(r));
    }

    /**
     * Adds the spans of epoch events read together, then starts calls: a stream's first call then
     * carries all of its events the read brought (up to the batch limit), not those of the first epoch
     * event that named it, so a body load knows how much of the stream it wants.
     *
     * @return false when the partition is not open (it was closed: the caller must stop)
     */
    public boolean offerAll(PartitionId p, List<EpochRecord> records) {
        List<Map<StreamName, List<FeedEvent>>> decoded = new ArrayList<>(records.size());
        for (EpochRecord r : records) {
            decoded.add(spans.apply(r.event()));
        }
        synchronized (this) {
            Slot slot = slots.get(p);
            if (slot == null) {
                return false;
            }
            for (int k = 0; k < records.size(); k++) {
                add(slot, records.get(k), decoded.get(k));
            }
            pump();
            return true;
        }
    }

    /** The spans of one epoch event, added to their streams (caller holds the lock). */
    private void add(Slot slot, EpochRecord r, Map<StreamName, List<FeedEvent>> byStream) {
        Progress.Entry entry = slot.progress.begin(r.position(), r.next(), r.indexedAt());
        for (Map.Entry<StreamName, List<FeedEvent>> e : byStream.entrySet()) {
            StreamState s = slot.streams.get(e.getKey());
            if (s == null) {
                s = new StreamState(e.getKey(), slot, positions.get(e.getKey()));
                slot.streams.put(e.getKey(), s);
            }
            if (s.add(entry, e.getValue())) {
                slot.progress.hold(entry);
            }
            after(s);
        }
        slot.progress.complete(entry);
    }

    /** Queues a READY stream, forgets an IDLE one (remembering how far it got). */
    private void after(StreamState s) {
        if (s.phase() == StreamState.Phase.READY) {
            if (!s.queued) {
                s.queued = true;
                ready.addLast(s);
            }
        } else if (s.phase() == StreamState.Phase.IDLE) {
            s.slot.streams.remove(s.stream);
            positions.put(s.stream, s.nextIndex());
        }
    }

    private boolean current(StreamState s) {
        return !s.slot.closed && s.slot.streams.get(s.stream) == s;
    }

    private void pump() {
        while (dispatching && runningJobs < maxConcurrent && !ready.isEmpty()) {
            int free = maxConcurrent - runningJobs;
            int size = Math.min(MAX_JOB_CALLS, Math.max(1, (ready.size() + free - 1) / free));
            List<Work> job = new ArrayList<>(size);
            List<StreamState> taken = new ArrayList<>(size);
            while (job.size() < size && !ready.isEmpty()) {
                StreamState s = ready.pollFirst();
                s.queued = false;
                if (!current(s) || s.phase() != StreamState.Phase.READY || inFlight.contains(s.stream)) {
                    continue; // stale, or an earlier lease's call still runs: queued again when it completes
                }
                job.add(s.take(maxBatchEvents));
                taken.add(s);
                inFlight.add(s.stream);
            }
            if (job.isEmpty()) {
                return;
            }
            runningJobs++;
            try {
                workers.execute(() -> runJob(job));
            } catch (RejectedExecutionException e) {
                runningJobs--;
                job.forEach(w -> inFlight.remove(w.stream()));
                LOG.debug("{} calls not dispatched, the reader is shutting down ({})", job.size(), e.toString());
                return;
            }
        }
    }

    private void runJob(List<Work> job) {
        int completed = 0;
        RuntimeException notLoaded = null;
        try {
            Map<Work, BodyLoader.Loaded> loaded;
            try (LogContext ignored = LogContext.partition(call.group(), samePartition(job))) {
                loaded = call.load(job);
            } catch (RuntimeException e) {
                LOG.warn("loading the events of {} calls failed; each fails with it and is retried: {}", job.size(), e.toString());
                notLoaded = e;
                return; // below: each call of the job fails with the cause, and is retried as any failed call
            }
            for (Work w : job) {
                try (LogContext ignored = LogContext.stream(call.group(), w.slot().partition, w.stream())) {
                    StreamCallOutcome o = call.run(w, loaded.get(w));
                    completed++;
                    completed(w, o);
                }
            }
        } finally {
            for (int k = completed; k < job.size(); k++) {
                completed(job.get(k), new StreamCallOutcome.Failed(notLoaded != null ? notLoaded
                        : new IllegalStateException("the handler call did not complete")));
            }
            synchronized (this) {
                runningJobs--;
                pump();
                notifyAll();
            }
        }
    }

    /** The partition of every call of the job, or null when they come from several (log context, capacity). */
    private static PartitionId samePartition(List<Work> job) {
        PartitionId p = job.get(0).slot().partition;
        for (Work w : job) {
            if (!w.slot().partition.equals(p)) {
                return null;
            }
        }
        return p;
    }

    private void completed(Work w, StreamCallOutcome o) {
        ParkedStream toPark = null;
        StreamState s;
        synchronized (this) {
            inFlight.remove(w.stream());
            s = w.slot().streams.get(w.stream());
            if (w.slot().closed || s == null) {
                wakeNewer(w);
                return; // the partition was closed meanwhile: the outcome no longer counts
            }
            if (o instanceof StreamCallOutcome.Done done) {
                complete(s, s.handled(w, done.nextIndex()));
            } else if (o instanceof StreamCallOutcome.ReplayDone) {
                LOG.info("{}: replay of the released stream is complete at index {}", w.stream(), w.replayFrom());
                complete(s, s.replayed(w));
            } else if (o instanceof StreamCallOutcome.Failed failed) {
                toPark = failed(s, w, failed.error());
            }
            if (toPark == null) {
                after(s);
                pump();
            }
            notifyAll();
        }
        if (toPark != null) {
            park(s, toPark);
        }
    }

    /** A call of the same stream from a newer opening of its partition waited for this one to end. */
    private void wakeNewer(Work w) {
        Slot now = slots.get(w.slot().partition);
        StreamState s = now == null ? null : now.streams.get(w.stream());
        if (s != null) {
            after(s);
            pump();
        }
    }

    private void complete(StreamState s, List<Progress.Entry> entries) {
        entries.forEach(s.slot.progress::complete);
    }

    /** @return the parked record to write, when this failure was the last allowed */
    private ParkedStream failed(StreamState s, Work w, Exception error) {
        String reason = StreamCall.describe(error);
        if (s.failed(parkAfterAttempts)) {
            return call.parkedRecord(w, reason, s.attempts());
        }
        Duration wait = backoff.after(s.attempts());
        if (s.attempts() == 1) {
            LOG.warn("{}: handler failed, retrying in {} ms: {}", s.stream, wait.toMillis(), reason, error);
        } else {
            LOG.warn("{}: handler failed (attempt {}), retrying in {} ms: {}", s.stream, s.attempts(), wait.toMillis(), reason);
        }
        retryLater(s, wait);
        return null;
    }

    private void retryLater(StreamState s, Duration wait) {
        try {
            timers.schedule(() -> retryDue(s), wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            LOG.debug("{}: no retry scheduled, the reader is shutting down ({})", s.stream, e.toString());
        }
    }

    private synchronized void retryDue(StreamState s) {
        if (current(s) && s.retryDue()) {
            after(s);
            pump();
        }
    }

    /** Writes the parked record outside the lock; only once it is durable may the checkpoint pass the stream. */
    private void park(StreamState s, ParkedStream p) {
        try {
            call.recordParked(p);
        } catch (RuntimeException e) {
            LOG.error("{}: could not record as parked ({}); it stays failing and holds the checkpoint", s.stream, e.toString(), e);
            synchronized (this) {
                if (current(s)) {
                    s.parkNotRecorded();
                    retryLater(s, backoff.after(s.attempts()));
                }
            }
            return;
        }
        LOG.warn("{}: parked after {} failed attempts at index {} (feed position {}): {}", s.stream, p.attempts(),
                p.fromIndex(), p.position(), p.reason());
        synchronized (this) {
            if (current(s)) {
                complete(s, s.parkedAs(p, ++parkSeq));
                after(s);
            }
            pump();
            notifyAll();
        }
    }

    /** The park sequence now: take it before listing the parked store, and pass it to {@link #released}. */
    public synchronized long parkSequence() {
        return parkSeq;
    }

    /**
     * Streams of open partitions parked (by {@code asOf}) in memory but no longer in
     * {@code stillParked}, a listing of the parked store taken after {@code asOf}, are replayed.
     */
    public synchronized void released(Set<StreamName> stillParked, long asOf) {
        for (Slot slot : slots.values()) {
            for (StreamState s : new ArrayList<>(slot.streams.values())) {
                if (s.parkedSince(asOf) && !stillParked.contains(s.stream)) {
                    LOG.info("{}: released; replaying from index {}", s.stream, s.parked().fromIndex());
                    s.release(asOf);
                    after(s);
                }
            }
        }
        pump();
    }

    public synchronized List<ParkedStream> parked() {
        List<ParkedStream> out = new ArrayList<>();
        for (Slot slot : slots.values()) {
            for (StreamState s : slot.streams.values()) {
                if (s.phase() == StreamState.Phase.PARKED) {
                    out.add(s.parked());
                }
            }
        }
        return out;
    }

    public synchronized PartitionStatus status(PartitionId p) {
        Slot slot = slots.get(p);
        if (slot == null) {
            return null;
        }
        int failing = 0;
        for (StreamState s : slot.streams.values()) {
            if (s.attempts() > 0) {
                failing++;
            }
        }
        return new PartitionStatus(slot.progress.handled(), slot.progress.read(), slot.progress.buffered(),
                slot.progress.oldestUnhandled().orElse(null), failing);
    }

    /** Waits up to {@code wait} while the partition has {@code max} or more epoch events outstanding. */
    public synchronized void awaitCapacity(PartitionId p, int max, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        Slot slot;
        while ((slot = slots.get(p)) != null && slot.progress.buffered() >= max) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    /**
     * Whether the partition has epoch events outstanding while every handler is busy: events read now
     * could not start sooner than those already waiting, so a read of the tail can wait.
     */
    public synchronized boolean busyWith(PartitionId p) {
        Slot slot = slots.get(p);
        return slot != null && slot.progress.buffered() > 0 && runningJobs >= maxConcurrent;
    }

    /** Waits up to {@code wait} while {@link #busyWith} the partition. */
    public synchronized void awaitNotBusyWith(PartitionId p, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (busyWith(p)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    private volatile boolean endsAtTail;

    /**
     * The reader ends once caught up ({@code runUntilCaughtUp}): a partition read to the tail it found
     * reads no further, since what a later read found would be the next run's.
     */
    public void endAtTail() {
        endsAtTail = true;
    }

    public boolean endsAtTail() {
        return endsAtTail;
    }

    /** No new handler calls start after this. */
    public synchronized void stopDispatching() {
        dispatching = false;
    }

    /** Waits until no handler call runs, at most {@code timeout}; false when some still run. */
    public synchronized boolean awaitNoneRunning(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (runningJobs > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    /** Wakes whoever waits in {@link #awaitUntil}: something it looks at (not only this scheduler's state) changed. */
    public synchronized void signal() {
        notifyAll();
    }

    /**
     * Waits until {@code condition} holds, at most {@code timeout}. The condition is evaluated under
     * this scheduler's lock and again after each change here or {@link #signal()}, so no change is missed.
     *
     * @return whether the condition held
     */
    public synchronized boolean awaitUntil(java.util.function.BooleanSupplier condition, Duration timeout) throws InterruptedException {
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
