package io.appendsfeed.reader.lambda.internal;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.EpochEvent;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.IndexState;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.store.Tip;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.DynamoParkedStreams;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Where each partition's feed ends, read as the notifier sees it: the index's active epoch, then that
 * epoch's Tip ({@code epoch × 1,000,000 + n}, or the next epoch once it closed). A handful of
 * consistent reads, so that a scheduled run over an idle feed need not start a reader at all.
 */
public final class FeedTails {

    private final StoreClient index;
    private final DynamoCheckpointStore checkpoints;

    public FeedTails(StoreClient index, DynamoCheckpointStore checkpoints) {
        this.index = index;
        this.checkpoints = checkpoints;
    }

    /** @throws RuntimeException when the index cannot be read */
    public Map<PartitionId, Checkpoint> read() {
        IndexState state = checkpoints.indexState();
        Map<PartitionId, Checkpoint> out = new TreeMap<>();
        for (int p = 0; p < state.partitions(); p++) {
            PartitionId partition = PartitionId.of(p);
            out.put(partition, tail(partition, state.activeEpoch(partition)));
        }
        return out;
    }

    /** Whether the group ever parked a stream: its releases are replayed by a reader, so such a group is always read. */
    public boolean everParked(String group) {
        return index.readTip(DynamoParkedStreams.stream(group), true).map(t -> t.version() > 0).orElse(false);
    }

    private Checkpoint tail(PartitionId p, EpochId active) {
        EpochId e = active;
        while (true) {
            Optional<Tip> tip = index.readTip(FeedStreams.epoch(p, e), true);
            if (tip.isEmpty()) {
                return Checkpoint.of(e, 0);
            }
            if (!closed(tip.get())) {
                return tip.get().version() >= Checkpoint.EPOCH_SIZE ? Checkpoint.of(e, 0).nextEpoch() : Checkpoint.of(e, tip.get().version());
            }
            e = e.next();
        }
    }

    private boolean closed(Tip tip) {
        if (tip.version() == 0) {
            return false;
        }
        if (!tip.events().isEmpty()) {
            return EpochEvent.CLOSED.equals(tip.events().get(tip.events().size() - 1).type());
        }
        // a Tip that carries no events (its writer moved them to calves): the last event says
        List<StoredEvent> last = index.readAll(tip.stream(), Read.backward().limit(1).strongly());
        return !last.isEmpty() && EpochEvent.CLOSED.equals(last.get(0).type());
    }
}
