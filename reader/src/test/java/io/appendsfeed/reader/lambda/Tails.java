package io.appendsfeed.reader.lambda;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedNotification;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.Tip;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Test support: where each partition's feed ends, read from the epoch Tips as the notifier sees them. */
final class Tails {

    private Tails() {}

    static Checkpoint of(StoreClient index, int partition) {
        for (int e = 0; ; e++) {
            Optional<Tip> tip = index.readTip(FeedStreams.epoch(PartitionId.of(partition), EpochId.of(e)), true);
            if (tip.isEmpty()) {
                return Checkpoint.of(e, 0);
            }
            List<?> events = tip.get().events();
            boolean closed = !events.isEmpty() && EpochEvent.CLOSED.equals(tip.get().events().get(events.size() - 1).type());
            if (!closed) {
                return Checkpoint.of(e, tip.get().version());
            }
        }
    }

    /** The notifications the notifier would send for every partition now. */
    static List<FeedNotification> notifications(StoreClient index, int partitions) {
        List<FeedNotification> out = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            out.add(new FeedNotification(PartitionId.of(p), of(index, p)));
        }
        return out;
    }
}
