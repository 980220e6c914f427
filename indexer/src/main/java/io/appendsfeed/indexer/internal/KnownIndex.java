package io.appendsfeed.indexer.internal;

import io.appendsfeed.model.Decider;
import io.appendsfeed.model.feed.AppendsIndex;
import io.appendsfeed.model.feed.AppendsIndex.IndexState;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.StoreClient;

/**
 * {@code $AppendsIndex-0} as this indexer last loaded or wrote it, shared by its partitions: moving a
 * partition on appends at that version first, so rolling an epoch reads nothing; a stale copy costs one
 * conflict and one load. Thread-safe.
 */
public final class KnownIndex {

    private Decider.Loaded<IndexState> known;

    public KnownIndex(Decider.Loaded<IndexState> loaded) {
        this.known = loaded;
    }

    /** Records {@code epoch} as the partition's active epoch (see {@link AppendsIndex#start}). */
    public synchronized void start(StoreClient index, PartitionId partition, EpochId epoch) {
        known = AppendsIndex.start(index, known, partition, epoch);
    }

    /** The partition's active epoch, read again (strongly consistent): after a failure of unknown effect, or at first. */
    public synchronized EpochId activeEpoch(StoreClient index, PartitionId partition) {
        known = AppendsIndex.load(index, true);
        return known.state().activeEpoch(partition);
    }
}
