package io.appendsfeed.samples.demo;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.EpochEvent;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedCodec;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import java.util.List;

/**
 * What the feed holds: walks every epoch of every partition in the index table (the same
 * {@code $AppendsEpoch-<p>_<e>} streams any reader walks) and counts each stream's events,
 * checking that each is there once, in order, with no gap.
 */
public final class FeedTally {

    private final StoreClient index;

    /** @param index a client on the index table (with {@code reservedStreams(true)}) */
    public FeedTally(StoreClient index) {
        this.index = index;
    }

    /** Counts the spans in partitions {@code 0..partitions-1}, epoch after epoch until one does not exist. */
    public Tally count(int partitions) {
        StreamCounter counter = new StreamCounter(true);
        for (int p = 0; p < partitions; p++) {
            for (EpochId e = EpochId.ZERO; ; e = e.next()) {
                StreamName epoch = FeedStreams.epoch(PartitionId.of(p), e);
                List<StoredEvent> events = index.readAll(epoch, Read.forward(0).strongly());
                if (events.isEmpty()) {
                    break;
                }
                for (StoredEvent stored : events) {
                    EpochEvent event = FeedCodec.decodeEpochEvent(stored.type(), stored.data());
                    if (event instanceof EpochEvent.Ingested ingested) {
                        ingested.add().forEach(s -> record(counter, s));
                        ingested.app().forEach(s -> record(counter, s));
                    }
                }
            }
        }
        return counter.tally("indexed");
    }

    private static void record(StreamCounter counter, Span span) {
        counter.record(span.stream(), span.index(), span.count());
    }
}
