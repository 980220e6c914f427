package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.EpochPage;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.FeedFormatException;
import io.appendsfeed.model.feed.PartitionId;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What the reader's core (coordinator, runners, start positions, lag) needs from the feed: its
 * partitions, epoch events from a position, and positions found in it. {@link DynamoFeed} reads
 * the index table; tests of the core use one kept in memory. Thread-safe.
 *
 * <p>Every method may throw a {@link RuntimeException} when the feed cannot be read (network,
 * throttling); callers retry at the same position, nothing is skipped.
 */
public interface Feed {

    /**
     * The partition count recorded in the index (1 when there is no index yet).
     *
     * @throws FeedMissingException when the index itself does not exist (not a passing error)
     */
    int partitions();

    /**
     * Up to {@code max} epoch events from {@code from}, in order and without gaps, stopping after
     * {@code Closed}; empty at the tail, and marked {@link EpochPage#atTail() at the tail} when the
     * read took the tail with it.
     *
     * @throws FeedFormatException when the first event cannot be read by this version; the
     *         partition must stop there, never skip it
     */
    EpochPage read(PartitionId partition, Checkpoint from, int max);

    /** {@code from}, or the start of the next epoch when {@code from} points just past its epoch's {@code Closed}. */
    Checkpoint normalize(PartitionId partition, Checkpoint from);

    /** The position after the partition's last epoch event (the start of the next epoch once the active one closed). */
    Checkpoint tail(PartitionId partition);

    /** The first position whose epoch event was indexed at or after {@code time} (the tail when there is none). */
    Checkpoint firstIndexedAtOrAfter(PartitionId partition, Instant time);

    /** Epoch events from {@code from} (inclusive) to {@code to} (exclusive); 0 when {@code to} is not after {@code from}. */
    long distance(PartitionId partition, Checkpoint from, Checkpoint to);

    /** How long before {@code now} the epoch event at {@code at} was indexed; zero when there is none (or it is later). */
    Duration age(PartitionId partition, Checkpoint at, Instant now);
}
