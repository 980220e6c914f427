package io.appendsfeed.reader.lambda.internal;

import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.AppendsIndex;
import io.appendsfeed.model.feed.AppendsIndex.IndexState;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.store.Tip;
import io.appendsfeed.reader.DynamoParkedStreams;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Where each partition's feed ends, read as the notifier sees it: the index's active epoch, then that
 * epoch's Tip ({@code epoch × 1,000,000 + n}, or the next epoch once it closed), and whether an event
 * already lies past {@code n} (a calf written before its Tip moved). A handful of consistent reads, so
 * that a scheduled run over an idle feed need not start a reader at all. A tail past {@code n} is only
 * ever compared with checkpoints ("behind or not"), never committed.
 */
public final class FeedTails {

    private final StoreClient index;

    public FeedTails(StoreClient index) {
        this.index = index;
    }

    /** @throws RuntimeException when the index cannot be read */
    public Map<PartitionId, Checkpoint> read() {
        IndexState state = AppendsIndex.read(index);
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
            Optional<Tip> tip = index.readTip(AppendsEpoch.stream(p, e), true);
            if (tip.isEmpty()) {
                return Checkpoint.of(e, 0);
            }
            long n = tip.get().version();
            // one query gives the epoch's last event (is it Closed?) and anything already past the Tip's n: calf-first
            // writes put events in a calf before the Tip moves, so a writer stopped between the two leaves some there
            List<StoredEvent> around = index.readAll(tip.get().stream(), Read.forward(Math.max(0, n - 1)).limit(2).strongly());
            boolean closed = around.stream().anyMatch(x -> x.index() == n - 1 && EpochEvent.CLOSED.equals(x.type()));
            boolean beyond = around.stream().anyMatch(x -> x.index() >= n);
            if (closed && !beyond) {
                e = e.next();
                continue;
            }
            if (n >= Checkpoint.EPOCH_SIZE) {
                return Checkpoint.of(e, 0).nextEpoch();
            }
            return Checkpoint.of(e, beyond ? n + 1 : n);
        }
    }
}
