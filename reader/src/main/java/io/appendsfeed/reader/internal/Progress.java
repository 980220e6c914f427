package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One opening of a partition in the scheduler: its streams with work, and the epoch events read and
 * not yet fully handled, in feed order. The handled position moves past an epoch event only when every
 * span of it is handled (or parked) and so is everything before it. A new one per opening, so that
 * outcomes of calls begun under an earlier lease no longer count. Guarded by the scheduler.
 */
public final class Progress {

    /** One epoch event: the spans it gave the scheduler that are still outstanding. */
    public static final class Entry {
        final Checkpoint position;
        private final Checkpoint next;
        private final Instant indexedAt;
        private int outstanding;

        private Entry(Checkpoint position, Checkpoint next, Instant indexedAt, int outstanding) {
            this.position = position;
            this.next = next;
            this.indexedAt = indexedAt;
            this.outstanding = outstanding;
        }
    }

    final PartitionId partition;
    /** Events written before this are not handed over (start from a time), or null. */
    final Instant notBefore;
    final Map<StreamName, StreamState> streams = new HashMap<>();
    boolean closed;
    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private Checkpoint handled;
    private Checkpoint read;

    public Progress(PartitionId partition, Checkpoint from, Instant notBefore) {
        this.partition = partition;
        this.notBefore = notBefore;
        this.handled = from;
        this.read = from;
    }

    /**
     * Records the epoch event at {@code position}; {@code next} is the position after it.
     *
     * @param items spans still to handle (0: nothing to do, e.g. {@code Closed} or all filtered out); the
     *              scheduler adds 1 while it adds spans ({@link #hold}), then {@link #complete}s that 1
     * @throws IllegalArgumentException when positions do not follow each other
     */
    public Entry add(Checkpoint position, Checkpoint next, Instant indexedAt, int items) {
        if (!position.equals(read)) {
            throw new IllegalArgumentException("epoch event at " + position + " does not follow the last one read, "
                    + read + ": the walk skipped or repeated epoch events");
        }
        if (next.compareTo(position) <= 0) {
            throw new IllegalArgumentException("next position " + next + " must be after " + position);
        }
        read = next;
        Entry e = new Entry(position, next, indexedAt, items);
        entries.addLast(e);
        advance();
        return e;
    }

    /** One more span of {@code e} is outstanding. */
    public void hold(Entry e) {
        if (e.outstanding <= 0) {
            throw new IllegalStateException("epoch event at " + e.position + " is already handled; add it with one span held while spans are added");
        }
        e.outstanding++;
    }

    /** One span of {@code e} is handled (or parked). */
    public void complete(Entry e) {
        if (e.outstanding <= 0) {
            throw new IllegalStateException("epoch event at " + e.position + " completed more often than it has spans");
        }
        e.outstanding--;
        advance();
    }

    private void advance() {
        while (!entries.isEmpty() && entries.peekFirst().outstanding == 0) {
            handled = entries.pollFirst().next;
        }
    }

    /** Everything before this position is handled: the checkpoint to commit. */
    public Checkpoint handled() {
        return handled;
    }

    /** The position after the last epoch event read. */
    public Checkpoint read() {
        return read;
    }

    /** Epoch events read and not yet fully handled. */
    public int buffered() {
        return entries.size();
    }

    /** Index time of the oldest epoch event not fully handled. */
    public Optional<Instant> oldestUnhandled() {
        return entries.isEmpty() ? Optional.empty() : Optional.ofNullable(entries.peekFirst().indexedAt);
    }
}
