package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.reader.FeedEvent;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One handler call to make, as handed to a worker thread: immutable, so that nothing the worker
 * reads can change under it. Either feed events (types known, bodies loaded by the worker when
 * configured) or, for a released parked stream, a chunk to read from the store table from
 * {@code replayFrom}.
 *
 * @param slot the partition session it was taken from: an outcome for a closed one does not count
 * @param events the feed events, ascending; empty for a replay
 * @param position the feed position of the first event, recorded if the stream gets parked
 * @param skipBelow events below this index are already handled
 * @param notBefore events written before this are not handed over (start from a time), or null
 * @param attemptsBefore failed calls of this stream in a row before this one
 * @param replayFrom the next index to replay from the store table, or -1 for feed events
 */
record Work(StreamName stream, Slot slot, List<FeedEvent> events, Checkpoint position, long skipBelow,
            Instant notBefore, int attemptsBefore, long replayFrom) {

    Work {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(slot, "slot");
        events = List.copyOf(events);
        if (replayFrom < 0 && events.isEmpty()) {
            throw new IllegalArgumentException("a call of " + stream + " needs events or a replay position");
        }
    }

    boolean replay() {
        return replayFrom >= 0;
    }

    /** The first index this call covers. */
    long firstIndex() {
        return replay() ? replayFrom : events.get(0).index();
    }

    long lastIndex() {
        return events.get(events.size() - 1).index();
    }

    /**
     * Each call is one of its own, however alike two may be: calls are keys of the maps a job's loads
     * and outcomes go through, and the record's own equality hashed every event of the call on each
     * look-up (JFR put 5% of a reader's samples with bodies there; the process's CPU per 100k events
     * did not move beyond the machine's noise).
     */
    @Override
    public boolean equals(Object o) {
        return o == this;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }
}
