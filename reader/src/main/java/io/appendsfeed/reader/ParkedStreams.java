package io.appendsfeed.reader;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Durable record of a group's parked streams. Implementations: {@link DynamoParkedStreams} (the
 * index table), {@link InMemoryParkedStreams}. Thread-safe.
 */
public interface ParkedStreams {

    /**
     * Records a stream as parked; the checkpoint passes its events only after this, so none is lost.
     *
     * @throws RuntimeException when the store cannot be written; the stream then stays failing
     */
    void park(ParkedStream parked);

    /**
     * Releases a parked stream: a reader holding its partition replays it from {@code fromIndex}.
     *
     * @return false when the stream is not parked
     */
    boolean release(String group, StreamName stream, String by);

    /** The group's parked streams, oldest first. */
    List<ParkedStream> list(String group);

    /**
     * A stream whose handler failed {@link FeedReaderConfig#parkAfterAttempts()} times: its events from
     * {@code fromIndex} on wait until it is released, then are read from the store table, in order.
     *
     * @param fromIndex the first event not handled
     * @param position the feed position the stream's first unhandled event came from
     * @param reason the last failure
     */
    record ParkedStream(String group, StreamName stream, PartitionId partition, long fromIndex, Checkpoint position,
                        String reason, int attempts, Instant parkedAt) {
        public ParkedStream {
            Objects.requireNonNull(group, "group");
            Objects.requireNonNull(stream, "stream");
            Objects.requireNonNull(partition, "partition");
            Objects.requireNonNull(position, "position");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(parkedAt, "parkedAt");
        }
    }
}
