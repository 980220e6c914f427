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
     * Records a stream as parked. The reader writes this before it lets the checkpoint pass the
     * stream's events, so a parked stream is never lost.
     *
     * @throws RuntimeException when the store cannot be written; the reader then keeps the stream
     *         failing and the checkpoint held before it
     */
    void park(ParkedStream parked);

    /**
     * Releases a parked stream for replay: a reader holding its partition reads its events from
     * {@code fromIndex} on from the store table and hands them over again.
     *
     * @return false when the stream is not parked
     */
    boolean release(String group, StreamName stream, String by);

    /** The group's parked streams, oldest first. */
    List<ParkedStream> list(String group);

    /**
     * A stream whose handler failed {@link FeedReaderConfig#parkAfterAttempts()} times. Its events
     * from {@code fromIndex} on are held back (later ones too) until it is released; then they are
     * read from the store table and handed over again, in order.
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
