package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.reader.FeedEvent;
import java.time.Instant;
import java.util.List;

/**
 * One handler call in the making: events taken from a stream's outstanding spans (feed), or a
 * chunk to read from the store table from {@code from} (replay of a released stream).
 *
 * @param generation the partition's generation at dispatch; a closed partition ignores the outcome
 * @param position the feed position of the first event, recorded if the stream gets parked
 * @param skipBelow events below this index are already handled
 * @param notBefore events written before this are not handed over (start from a time), or null
 */
record Batch(StreamState state, int generation, boolean replay, long from, List<FeedEvent> events,
             Checkpoint position, long skipBelow, Instant notBefore) {

    /** The first index this call covers. */
    long firstIndex() {
        return replay ? from : events.get(0).index();
    }
}
