package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.FeedPositions;
import io.appendsfeed.model.feed.EpochPage;
import io.appendsfeed.model.feed.EpochReader;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.StoreClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import io.appendsfeed.model.store.MissingTableException;

/** The feed in the index table: epoch events through {@link EpochReader}, positions through {@link FeedPositions}. */
public final class DynamoFeed implements Feed {

    private final String table;
    private final EpochReader epochs;
    private final FeedPositions positions;

    /** @param index a client of the index table with {@code reservedStreams(true)} */
    public DynamoFeed(StoreClient index) {
        this.table = index.config().table();
        this.epochs = new EpochReader(index);
        this.positions = new FeedPositions(index);
    }

    @Override
    public int partitions() {
        try {
            return positions.partitions();
        } catch (MissingTableException e) {
            throw new FeedMissingException(table, e);
        }
    }

    @Override
    public EpochPage read(PartitionId partition, Checkpoint from, int max) {
        return epochs.read(partition, from, max);
    }

    @Override
    public Checkpoint normalize(PartitionId partition, Checkpoint from) {
        return epochs.normalize(partition, from);
    }

    @Override
    public Checkpoint tail(PartitionId partition) {
        return positions.tail(partition);
    }

    @Override
    public Checkpoint firstIndexedAtOrAfter(PartitionId partition, Instant time) {
        return positions.firstIndexedAtOrAfter(partition, time);
    }

    @Override
    public long distance(PartitionId partition, Checkpoint from, Checkpoint to) {
        return positions.distance(partition, from, to);
    }

    @Override
    public Duration age(PartitionId partition, Checkpoint at, Instant now) {
        return positions.age(partition, at, now);
    }
}
