package io.appendsfeed.reader;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import java.time.Instant;
import java.util.Objects;

/**
 * A stream whose handler failed {@link FeedReaderConfig#parkAfterAttempts()} times. Its events
 * from {@code fromIndex} on are held back (later ones too) until it is released; then they are
 * read from the store table and handed over again, in order.
 *
 * @param fromIndex the first event not handled
 * @param position the feed position the stream's first unhandled event came from
 * @param reason the last failure
 */
public record ParkedStream(String group, StreamName stream, PartitionId partition, long fromIndex, Checkpoint position,
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
