package io.appendsfeed.reader.cli.internal;

import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import java.time.Instant;
import java.util.stream.Stream;

/**
 * Reads every epoch of a partition from epoch 0, page by page: an epoch ending in {@code Closed}
 * leads to the next one; the first epoch that does not (or does not exist) is the last.
 */
public final class EpochWalk {

    /** An epoch event as stored; {@code event} is decoded by {@link AppendsEpoch#decode}. */
    public record Entry(Checkpoint position, Instant indexedAt, int bytes, EpochEvent event) {}

    /** What the walk reports, in order. */
    public interface Visitor {
        default void epochStarted(PartitionId p, EpochId epoch) {}

        void entry(PartitionId p, Entry entry);

        /** @param length the epoch events in it, {@code Closed} included */
        default void epochEnded(PartitionId p, EpochId epoch, long length, boolean closed) {}
    }

    private final StoreClient index;

    public EpochWalk(StoreClient index) {
        this.index = index;
    }

    /**
     * @return the last epoch read (the partition's active one when the index is consistent)
     * @throws io.appendsfeed.model.feed.FeedFormatException at an epoch event this version cannot
     *         read; what precedes it has been visited
     */
    public EpochId walk(PartitionId p, Visitor visitor) {
        for (EpochId e = EpochId.ZERO; ; e = e.next()) {
            visitor.epochStarted(p, e);
            long length = 0;
            boolean closed = false;
            try (Stream<StoredEvent> events = index.read(AppendsEpoch.stream(p, e), Read.forward(0))) {
                for (StoredEvent s : (Iterable<StoredEvent>) events::iterator) {
                    EpochEvent event = AppendsEpoch.decode(s);
                    visitor.entry(p, new Entry(Checkpoint.of(e, s.index()), s.timestamp(), s.data() == null ? 0 : s.data().length, event));
                    length = s.index() + 1;
                    closed = event instanceof EpochEvent.Closed;
                }
            }
            visitor.epochEnded(p, e, length, closed);
            if (!closed) {
                return e;
            }
        }
    }
}
