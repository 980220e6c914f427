package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.FeedEvent;
import io.appendsfeed.reader.ParkedStream;
import java.util.ArrayDeque;
import java.util.List;

/**
 * What the scheduler knows about one stream: its outstanding feed spans in order, the index the
 * handler has reached, failures, and whether it is parked or replaying. Guarded by the scheduler.
 */
final class StreamState {

    /** The events of one stream from one epoch event, trimmed from the front as they are handled. */
    static final class WorkItem {
        final Progress.Entry entry;
        final ArrayDeque<FeedEvent> events;

        WorkItem(Progress.Entry entry, List<FeedEvent> events) {
            this.entry = entry;
            this.events = new ArrayDeque<>(events);
        }
    }

    final StreamName stream;
    PartitionId partition;
    int generation;
    final ArrayDeque<WorkItem> pending = new ArrayDeque<>();
    /** The index of the first event not yet handled, -1 when unknown. */
    long nextIndex = -1;
    boolean busy;
    boolean queued;
    boolean waitingRetry;
    int attempts;
    String lastError;
    ParkedStream parked;
    /** When it was parked, in the scheduler's park sequence. */
    long parkSeq;
    /** While replaying a released stream: the next index to read from the store table. */
    Long replayFrom;
    Checkpoint replayPosition;

    StreamState(StreamName stream, PartitionId partition, int generation) {
        this.stream = stream;
        this.partition = partition;
        this.generation = generation;
    }

    boolean hasWork() {
        return replayFrom != null || !pending.isEmpty();
    }

    boolean dispatchable() {
        return !busy && !waitingRetry && parked == null && hasWork();
    }

    boolean idle() {
        return !busy && !waitingRetry && parked == null && !hasWork();
    }

    /** Forgets everything tied to the partition's lease (the partition was closed). */
    void reset() {
        pending.clear();
        waitingRetry = false;
        attempts = 0;
        lastError = null;
        parked = null;
        replayFrom = null;
        replayPosition = null;
    }
}
