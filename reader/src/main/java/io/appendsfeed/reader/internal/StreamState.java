package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.ParkedStreams.ParkedStream;
import io.appendsfeed.reader.internal.StreamCall.Work;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One stream of an open partition: its outstanding feed events in order, the index its handler has
 * reached, failures, and whether it is parked or replaying. Every change of {@link Phase} happens
 * in a method of this class, called by the scheduler under its lock.
 */
final class StreamState {

    enum Phase {
        /** Nothing to do: may be forgotten. */
        IDLE,
        /** Has work and no call in flight: waits for a worker. */
        READY,
        /** A call is in flight; events arriving meanwhile wait for the next. */
        RUNNING,
        /** The last call failed; the next waits for its backoff. */
        RETRY_WAIT,
        /** Recorded as parked: its events wait in the store table until it is released. */
        PARKED
    }

    /** The events of this stream from one epoch event; {@code from} of them are handled. */
    private static final class Pending {
        final Progress.Entry entry;
        final List<FeedEvent> events;
        int from;

        Pending(Progress.Entry entry, List<FeedEvent> events, int from) {
            this.entry = entry;
            this.events = events;
            this.from = from;
        }
    }

    final StreamName stream;
    final Progress slot;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private Phase phase = Phase.IDLE;
    /** The index of the first event not yet handled, -1 when unknown. */
    private long nextIndex;
    private int attempts;
    private ParkedStream parked;
    /** When it was parked, in the scheduler's park sequence. */
    private long parkSeq;
    /** While replaying a released stream: the next index to read from the store table, else -1. */
    private long replayFrom = -1;
    private Checkpoint replayPosition;
    /** In the scheduler's ready queue (kept by the scheduler). */
    boolean queued;

    StreamState(StreamName stream, Progress slot, long nextIndex) {
        this.stream = stream;
        this.slot = slot;
        this.nextIndex = nextIndex;
    }

    Phase phase() {
        return phase;
    }

    long nextIndex() {
        return nextIndex;
    }

    int attempts() {
        return attempts;
    }

    /** Parked (when the partition was opened, or by a call of its own). */
    void park(ParkedStream p, long seq) {
        parked = p;
        parkSeq = seq;
        phase = Phase.PARKED;
    }

    /**
     * Adds this stream's events of one epoch event (ascending). Events already handled are dropped;
     * a parked stream takes none (they are replayed from the store table on release).
     *
     * @return whether any were added: the epoch event then waits for this stream
     */
    boolean add(Progress.Entry entry, List<FeedEvent> events) {
        if (phase == Phase.PARKED) {
            return false;
        }
        int from = 0;
        while (from < events.size() && events.get(from).index() < nextIndex) {
            from++;
        }
        if (from == events.size()) {
            return false;
        }
        pending.addLast(new Pending(entry, events, from));
        if (phase == Phase.IDLE) {
            phase = Phase.READY;
        }
        return true;
    }

    /** READY to RUNNING: the next call, with at most {@code maxEvents} feed events. */
    Work take(int maxEvents) {
        if (phase != Phase.READY) {
            throw new IllegalStateException(stream + " is " + phase + ", not READY: no call may start");
        }
        phase = Phase.RUNNING;
        if (replayFrom >= 0) {
            return new Work(stream, slot, List.of(), replayPosition, nextIndex, attempts, replayFrom);
        }
        List<FeedEvent> events = new ArrayList<>(Math.min(maxEvents, 64));
        for (Pending p : pending) {
            for (int k = p.from; k < p.events.size() && events.size() < maxEvents; k++) {
                events.add(p.events.get(k));
            }
        }
        return new Work(stream, slot, events, pending.peekFirst().entry.position, nextIndex, attempts, -1);
    }

    /**
     * The call ended: handled, a replay found nothing more (back to following the feed), failed (the next
     * waits for its backoff), or parked (every epoch event it held back is let go).
     *
     * @param seq the scheduler's park sequence, recorded when parked
     * @return the epoch events this stream no longer holds back
     */
    List<Progress.Entry> ended(Work w, StreamCall.Outcome o, long seq) {
        if (o instanceof StreamCall.Outcome.Failed) {
            attempts++;
            phase = Phase.RETRY_WAIT;
            return List.of();
        }
        attempts = 0;
        if (o instanceof StreamCall.Outcome.Parked p) {
            List<Progress.Entry> out = pending.stream().map(x -> x.entry).toList();
            pending.clear();
            park(p.parked(), seq);
            replayFrom = -1;
            replayPosition = null;
            return out;
        }
        if (o instanceof StreamCall.Outcome.Done done) {
            nextIndex = Math.max(nextIndex, done.nextIndex());
            if (w.replay()) {
                replayFrom = Math.max(w.replayFrom() + 1, done.nextIndex());
            }
        } else { // ReplayDone
            replayFrom = -1;
            replayPosition = null;
            nextIndex = Math.max(nextIndex, w.replayFrom());
        }
        return settle();
    }

    /** The backoff after a failure is over. @return whether it is READY now */
    boolean retryDue() {
        if (phase == Phase.RETRY_WAIT) {
            phase = hasWork() ? Phase.READY : Phase.IDLE;
        }
        return phase == Phase.READY;
    }

    /**
     * Released if it was parked by {@code asOf}: READY to replay from where it stopped.
     *
     * @return the index the replay starts from, or -1 when it was not parked by then
     */
    long release(long asOf) {
        if (phase != Phase.PARKED || parkSeq > asOf) {
            return -1;
        }
        replayFrom = parked.fromIndex();
        replayPosition = parked.position();
        parked = null;
        attempts = 0;
        phase = Phase.READY;
        return replayFrom;
    }

    private boolean hasWork() {
        return replayFrom >= 0 || !pending.isEmpty();
    }

    /** Drops handled events from the front; spans left empty are complete. Then READY or IDLE. */
    private List<Progress.Entry> settle() {
        List<Progress.Entry> done = new ArrayList<>();
        while (!pending.isEmpty()) {
            Pending p = pending.peekFirst();
            while (p.from < p.events.size() && p.events.get(p.from).index() < nextIndex) {
                p.from++;
            }
            if (p.from < p.events.size()) {
                break;
            }
            pending.pollFirst();
            done.add(p.entry);
        }
        phase = hasWork() ? Phase.READY : Phase.IDLE;
        return done;
    }
}
