package io.appendsfeed.samples.demo;

import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.samples.demo.Agreement.Tally;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.EpochEvent;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * What the feed holds: walks every epoch of every partition in the index table (the same
 * {@code $AppendsEpoch-<p>_<e>} streams any reader walks) and counts each stream's events,
 * checking that each is there once, in order, with no gap. Incremental: each {@link #refresh()}
 * reads only the epoch events added since the last one.
 */
public final class FeedTally {

    private final StoreClient index;
    private final StreamCounter counter = new StreamCounter(true);
    private final List<Checkpoint> tails = new ArrayList<>();

    /**
     * @param index a client on the index table (with {@code reservedStreams(true)})
     * @param partitions the feed's partition count
     */
    public FeedTally(StoreClient index, int partitions) {
        this.index = index;
        for (int p = 0; p < partitions; p++) {
            tails.add(Checkpoint.START);
        }
    }

    /** Reads what was added to each partition since the last call. */
    public synchronized void refresh() {
        for (int p = 0; p < tails.size(); p++) {
            Checkpoint at = tails.get(p);
            while (true) {
                List<StoredEvent> events = index.readAll(AppendsEpoch.stream(PartitionId.of(p), at.epoch()),
                        Read.forward(at.offset()).strongly());
                boolean closed = false;
                for (StoredEvent stored : events) {
                    EpochEvent event = AppendsEpoch.decode(stored);
                    if (event instanceof EpochEvent.Ingested ingested) {
                        ingested.add().forEach(this::record);
                        ingested.app().forEach(this::record);
                    } else {
                        closed = true;
                    }
                    at = Checkpoint.of(at.epoch(), stored.index() + 1);
                }
                if (!closed) {
                    break;
                }
                at = at.nextEpoch();
            }
            tails.set(p, at);
        }
    }

    private void record(Span span) {
        counter.record(span.stream(), span.index(), span.count());
    }

    /** Stream events counted so far. */
    public long events() {
        return counter.total();
    }

    /** The end of each partition as last read: the checkpoint a reader that has read everything holds. */
    public synchronized List<Checkpoint> tails() {
        return List.copyOf(tails);
    }

    public Tally tally() {
        return counter.tally("indexed");
    }
}
