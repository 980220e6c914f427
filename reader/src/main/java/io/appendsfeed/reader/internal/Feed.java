package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.EpochPage;
import io.appendsfeed.model.feed.EpochReader;
import io.appendsfeed.model.feed.FeedFormatException;
import io.appendsfeed.model.feed.FeedPositions;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreTables.WrongTableShapeException;
import java.time.Duration;
import java.time.Instant;

/**
 * What the reader's core needs from the feed ({@link #of} reads the index table; tests use one in
 * memory). Thread-safe. Any method may throw when the feed cannot be read; callers retry at the same
 * position, nothing is skipped.
 */
public interface Feed {

    /**
     * The partition count recorded in the index (1 when there is no index yet).
     *
     * @throws WrongTableShapeException when the index table does not exist (not a passing error)
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

    /** The feed in the index table ({@code index} with {@code reservedStreams(true)}). */
    static Feed of(StoreClient index) {
        EpochReader epochs = new EpochReader(index);
        FeedPositions positions = new FeedPositions(index);
        return new Feed() {
            @Override public int partitions() { return positions.partitions(); }
            @Override public EpochPage read(PartitionId p, Checkpoint from, int max) { return epochs.read(p, from, max); }
            @Override public Checkpoint normalize(PartitionId p, Checkpoint from) { return epochs.normalize(p, from); }
            @Override public Checkpoint tail(PartitionId p) { return positions.tail(p); }
            @Override public Checkpoint firstIndexedAtOrAfter(PartitionId p, Instant t) {
                return positions.firstIndexedAtOrAfter(p, t);
            }
            @Override public long distance(PartitionId p, Checkpoint from, Checkpoint to) {
                return positions.distance(p, from, to);
            }
            @Override public Duration age(PartitionId p, Checkpoint at, Instant now) { return positions.age(p, at, now); }
        };
    }
}
