package io.appendsfeed.reader.internal;

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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
 * All state is guarded by this object's monitor; handler calls run on {@code workers}.
 */
public final class Scheduler {

    private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);
    /** Streams whose reached index is remembered once idle, to skip redelivered events. */
    private static final int REMEMBERED_POSITIONS = 100_000;

    private final StreamCall call;
    private final SpanFilter filter;
    private final int maxConcurrent;
    private final int maxBatchEvents;
    private final Backoff backoff;
    private final ExecutorService workers;
    private final ScheduledExecutorService timers;
    private final Map<PartitionId, Slot> slots = new HashMap<>();
    private final Map<StreamName, StreamState> streams = new HashMap<>();
    private final ArrayDeque<StreamState> ready = new ArrayDeque<>();
    private final ReachedPositions positions = new ReachedPositions(REMEMBERED_POSITIONS);
    private long parkSeq;
    private int running;
    private int generations;
    private boolean dispatching = true;

    public Scheduler(StreamCall call, Set<String> categories, Set<String> eventTypes, int maxConcurrent, int maxBatchEvents,
                     Backoff backoff, ExecutorService workers, ScheduledExecutorService timers) {
        this.call = call;
        this.filter = new SpanFilter(categories, eventTypes);
        this.maxConcurrent = maxConcurrent;
        this.maxBatchEvents = maxBatchEvents;
        this.backoff = backoff;
        this.workers = workers;
        this.timers = timers;
    }

    /** Starts tracking a partition from {@code from}; {@code parked} are its streams parked so far. */
    public synchronized void open(PartitionId p, Checkpoint from, Instant notBefore, List<ParkedStream> parked) {
        if (slots.containsKey(p)) {
            throw new IllegalStateException("partition " + p + " is already open");
        }
        Slot slot = new Slot(new Progress(from), ++generations, notBefore);
        slots.put(p, slot);
        for (ParkedStream ps : parked) {
            if (ps.partition().equals(p)) {
                StreamState s = state(ps.stream(), p, slot);
                s.parked = ps;
                s.parkSeq = ++parkSeq;
            }
        }
    }

    /** Forgets a partition (lease lost, or closing): its outstanding work is dropped, running calls finish unheeded. */
    public synchronized void close(PartitionId p) {
        Slot slot = slots.remove(p);
        if (slot == null) {
            return;
        }
        for (StreamName name : slot.streams) {
            StreamState s = streams.get(name);
            if (s != null && s.generation == slot.generation) {
                s.reset();
                if (!s.busy) {
                    streams.remove(name);
                }
            }
        }
        notifyAll();
    }

    /**
     * Adds the spans of one epoch event; they must follow the partition's last one.
     *
     * @return false when the partition is not open (it was closed: the caller must stop)
     */
    public synchronized boolean offer(PartitionId p, EpochRecord r) {
        Slot slot = slots.get(p);
        if (slot == null) {
            return false;
        }
        Map<StreamName, TreeMap<Long, FeedEvent>> byStream = filter.apply(r.event());
        List<StreamState> touched = new ArrayList<>();
        List<List<FeedEvent>> work = new ArrayList<>();
        for (Map.Entry<StreamName, TreeMap<Long, FeedEvent>> e : byStream.entrySet()) {
            StreamState s = state(e.getKey(), p, slot);
            List<FeedEvent> events = new ArrayList<>(e.getValue().tailMap(Math.max(s.nextIndex, 0L)).values());
            if (events.isEmpty()) {
                continue; // already handled (redelivery, or the handler reached past it)
            }
            if (s.parked != null) {
                LOG.debug("{}: {} events wait behind the parked stream", s.stream, events.size());
                continue; // held by the parked record: replayed from the store table on release
            }
            touched.add(s);
            work.add(events);
        }
        Progress.Entry entry = slot.progress.add(r.position(), r.next(), r.indexedAt(), touched.size());
        for (int k = 0; k < touched.size(); k++) {
            StreamState s = touched.get(k);
            s.pending.addLast(new StreamState.WorkItem(entry, work.get(k)));
            enqueue(s);
        }
        for (StreamName name : byStream.keySet()) {
            StreamState s = streams.get(name);
            if (s != null && s.idle()) {
                forget(s, slot);
            }
        }
        pump();
        return true;
    }

    private StreamState state(StreamName name, PartitionId p, Slot slot) {
        StreamState s = streams.get(name);
        if (s == null) {
            s = new StreamState(name, p, slot.generation);
            s.nextIndex = positions.get(name);
            streams.put(name, s);
        } else if (s.generation != slot.generation) {
            s.reset(); // left over from an earlier lease on this partition, still busy
            s.partition = p;
            s.generation = slot.generation;
        }
        slot.streams.add(name);
        return s;
    }

    private void forget(StreamState s, Slot slot) {
        streams.remove(s.stream);
        slot.streams.remove(s.stream);
        positions.put(s.stream, s.nextIndex);
    }

    private void enqueue(StreamState s) {
        if (!s.queued && s.dispatchable()) {
            s.queued = true;
            ready.addLast(s);
        }
    }

    private void pump() {
        while (dispatching && running < maxConcurrent && !ready.isEmpty()) {
            StreamState s = ready.pollFirst();
            s.queued = false;
            Slot slot = slots.get(s.partition);
            if (streams.get(s.stream) != s || slot == null || slot.generation != s.generation || !s.dispatchable()) {
                continue;
            }
            Batch b = batch(s, slot);
            int attempts = s.attempts;
            s.busy = true;
            running++;
            try {
                workers.execute(() -> {
                    try (LogContext ignored = LogContext.stream(call.group(), b.state().partition, b.state().stream)) {
                        Outcome o = new Outcome.Failed(new IllegalStateException("the handler call did not complete"));
                        try {
                            o = call.run(b, attempts);
                        } finally {
                            completed(b, o);
                        }
                    }
                });
            } catch (RejectedExecutionException e) {
                s.busy = false;
                running--;
                LOG.debug("{}: not dispatched, the reader is shutting down ({})", s.stream, e.toString());
                return;
            }
        }
    }

    private Batch batch(StreamState s, Slot slot) {
        if (s.replayFrom != null) {
            return new Batch(s, slot.generation, true, s.replayFrom, List.of(), s.replayPosition, s.nextIndex, slot.notBefore);
        }
        List<FeedEvent> events = new ArrayList<>();
        for (StreamState.WorkItem item : s.pending) {
            for (FeedEvent e : item.events) {
                if (events.size() >= maxBatchEvents) {
                    break;
                }
                events.add(e);
            }
        }
        Checkpoint position = s.pending.peekFirst().entry.position();
        return new Batch(s, slot.generation, false, events.get(0).index(), List.copyOf(events), position, s.nextIndex, slot.notBefore);
    }

    private synchronized void completed(Batch b, Outcome o) {
        running--;
        StreamState s = b.state();
        s.busy = false;
        Slot slot = slots.get(s.partition);
        if (slot == null || slot.generation != b.generation() || s.generation != b.generation()) {
            // the partition was closed meanwhile: the outcome no longer counts
            if (streams.get(s.stream) == s && slot == null) {
                streams.remove(s.stream);
            }
        } else {
            apply(s, slot, b, o);
        }
        if (streams.get(s.stream) == s) {
            if (slot != null && s.idle()) {
                forget(s, slot);
            } else {
                enqueue(s);
            }
        }
        pump();
        notifyAll();
    }

    private void apply(StreamState s, Slot slot, Batch b, Outcome o) {
        if (o instanceof Outcome.Done done) {
            s.attempts = 0;
            s.lastError = null;
            s.nextIndex = Math.max(s.nextIndex, done.nextIndex());
            if (b.replay()) {
                s.replayFrom = Math.max(b.from() + 1, done.nextIndex());
            }
            trim(s, slot);
        } else if (o instanceof Outcome.ReplayDone) {
            LOG.info("{}: replay of the released stream is complete at index {}", s.stream, b.from());
            s.replayFrom = null;
            s.replayPosition = null;
            s.nextIndex = Math.max(s.nextIndex, b.from());
            trim(s, slot);
        } else if (o instanceof Outcome.Failed failed) {
            s.attempts++;
            s.lastError = StreamCall.describe(failed.error());
            Duration wait = backoff.after(s.attempts);
            if (s.attempts == 1) {
                LOG.warn("{}: handler failed, retrying in {} ms: {}", s.stream, wait.toMillis(), s.lastError, failed.error());
            } else {
                LOG.warn("{}: handler failed (attempt {}), retrying in {} ms: {}", s.stream, s.attempts, wait.toMillis(), s.lastError);
            }
            s.waitingRetry = true;
            int generation = s.generation;
            timers.schedule(() -> retryDue(s, generation), wait.toMillis(), TimeUnit.MILLISECONDS);
        } else if (o instanceof Outcome.Parked parked) {
            LOG.warn("{}: parked after {} failed attempts at index {} (feed position {}): {}", s.stream,
                    parked.parked().attempts(), parked.parked().fromIndex(), parked.parked().position(), parked.parked().reason());
            s.parked = parked.parked();
            s.parkSeq = ++parkSeq;
            s.attempts = 0;
            s.replayFrom = null;
            s.replayPosition = null;
            while (!s.pending.isEmpty()) {
                slot.progress.complete(s.pending.pollFirst().entry);
            }
        }
    }

    /** Drops handled events from the front of the stream's spans; empty spans count as handled. */
    private void trim(StreamState s, Slot slot) {
        while (!s.pending.isEmpty()) {
            StreamState.WorkItem item = s.pending.peekFirst();
            while (!item.events.isEmpty() && item.events.peekFirst().index() < s.nextIndex) {
                item.events.pollFirst();
            }
            if (!item.events.isEmpty()) {
                return;
            }
            s.pending.pollFirst();
            slot.progress.complete(item.entry);
        }
    }

    private synchronized void retryDue(StreamState s, int generation) {
        if (s.generation == generation && s.waitingRetry) {
            s.waitingRetry = false;
            enqueue(s);
            pump();
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
        for (StreamState s : new ArrayList<>(streams.values())) {
            if (s.parked != null && s.parkSeq <= asOf && !stillParked.contains(s.stream) && slots.containsKey(s.partition)) {
                LOG.info("{}: released; replaying from index {}", s.stream, s.parked.fromIndex());
                s.replayFrom = s.parked.fromIndex();
                s.replayPosition = s.parked.position();
                s.parked = null;
                s.attempts = 0;
                enqueue(s);
            }
        }
        pump();
    }

    public synchronized List<ParkedStream> parked() {
        List<ParkedStream> out = new ArrayList<>();
        streams.values().forEach(s -> {
            if (s.parked != null) {
                out.add(s.parked);
            }
        });
        return out;
    }

    public synchronized PartitionStatus status(PartitionId p) {
        Slot slot = slots.get(p);
        if (slot == null) {
            return null;
        }
        int failing = 0;
        for (StreamName name : slot.streams) {
            StreamState s = streams.get(name);
            if (s != null && s.attempts > 0) {
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

    /** No new handler calls start after this. */
    public synchronized void stopDispatching() {
        dispatching = false;
    }

    /** Waits until no handler call runs, at most {@code timeout}; false when some still run. */
    public synchronized boolean awaitNoneRunning(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (running > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }
}
