package io.appendsfeed.reader;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import java.time.Duration;

/**
 * How far behind the feed one partition is, as this reader instance sees it.
 *
 * @param committed the checkpoint last committed (null when none)
 * @param handled everything before it is handled (what the next commit writes)
 * @param tail the end of the partition now; null when the index could not be read (then
 *             {@code eventsBehind} is -1 and {@code oldestUnhandledAge} null, and {@code error} says why)
 * @param eventsBehind epoch events from {@code handled} to {@code tail}
 * @param oldestUnhandledAge how long ago the oldest epoch event not yet handled was indexed; zero when caught up
 * @param failingStreams streams being retried after handler failures
 * @param error why the partition stopped, when {@link State#FAILED}
 */
public record PartitionLag(PartitionId partition, State state, Checkpoint committed, Checkpoint handled, Checkpoint tail,
                           long eventsBehind, Duration oldestUnhandledAge, int failingStreams, String error) {

    public enum State {
        /** Resolving its start position. */
        STARTING,
        /** Walking the feed. */
        READING,
        /** Not read by this instance any more (closed, or its lease went to another instance). */
        STOPPED,
        /** Stopped on something it cannot read (a newer format); nothing was skipped. See {@code error}. */
        FAILED
    }
}
