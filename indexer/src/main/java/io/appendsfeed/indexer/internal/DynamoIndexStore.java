package io.appendsfeed.indexer.internal;

import io.appendsfeed.model.feed.AppendsIndex;
import io.appendsfeed.model.feed.AppendsIndex.Loaded;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedCodec;
import io.appendsfeed.model.feed.IndexEvent;
import io.appendsfeed.model.feed.IndexState;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.Unfold;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes {@code $AppendsIndex-0}: created with a {@code Started} at epoch 0 for every partition (which
 * records the partition count), then a {@code Started} each time an epoch closes. Every append
 * carries a {@code Snapshotted} unfold at the new version, so loading it ({@link AppendsIndex}, which
 * holds the stream's name, events, fold and snapshot rule) is one read of the Tip.
 */
public final class DynamoIndexStore {

    private final StoreClient index;

    public DynamoIndexStore(StoreClient index) {
        this.index = index;
    }

    /** Strongly consistent; the snapshot rule is the model's ({@link AppendsIndex#load}). */
    public Loaded load() {
        return AppendsIndex.load(index, true);
    }

    /** Creates the index for {@code partitions} unless it exists; returns what is there either way. */
    public Loaded create(int partitions) {
        List<IndexEvent> started = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            started.add(new IndexEvent.Started(PartitionId.of(p), EpochId.ZERO));
        }
        // a conflict means another indexer created it first: what it recorded is what counts
        append(Expected.noStream(), IndexState.fold(started), started);
        return load();
    }

    /**
     * Records that {@code epoch} is the active epoch of {@code partition}, unless the index already
     * says so or names a later one. Idempotent; retries on conflicts.
     */
    public IndexState start(PartitionId partition, EpochId epoch) {
        while (true) {
            Loaded l = load();
            if (l.state().isCreated() && l.state().activeEpoch(partition).compareTo(epoch) >= 0) {
                return l.state();
            }
            IndexEvent.Started started = new IndexEvent.Started(partition, epoch);
            IndexState next = l.state().evolve(started);
            if (append(Expected.version(l.version()), next, List.of(started))) {
                return next;
            }
        }
    }

    private boolean append(Expected expected, IndexState after, List<IndexEvent> events) {
        List<EventData> data = events.stream().map(e -> EventData.of(e.type(), FeedCodec.encode(e))).toList();
        IndexEvent.Snapshotted snapshot = after.snapshot();
        Unfold unfold = new Unfold(snapshot.type(), FeedCodec.encode(snapshot), null);
        return index.append(AppendsIndex.STREAM, expected, data, List.of(unfold)) instanceof AppendResult.Written;
    }
}
