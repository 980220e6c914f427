package io.appendsfeed.model.feed;

import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.store.StoreClient.StreamSlice;
import java.util.ArrayList;
import java.util.List;

/** Reads a partition's epoch events from a position; an epoch that does not exist yet reads as empty. */
public final class EpochReader {

    private final StoreClient index;

    public EpochReader(StoreClient index) {
        this.index = index;
    }

    /**
     * {@code from}, or the next epoch's start when {@code from} is just past its epoch's {@code Closed} (a
     * checkpoint set by hand to an epoch's length), where a walk would otherwise wait forever.
     */
    public Checkpoint normalize(PartitionId partition, Checkpoint from) {
        if (from.offset() == 0) {
            return from;
        }
        List<StoredEvent> previous = index.readAll(AppendsEpoch.stream(partition, from.epoch()),
                Read.forward(from.offset() - 1).limit(1).typesOnly());
        boolean afterClosed = !previous.isEmpty() && previous.get(0).index() == from.offset() - 1
                && EpochEvent.CLOSED.equals(previous.get(0).type());
        return afterClosed ? from.nextEpoch() : from;
    }

    /**
     * About {@code max} epoch events from {@code from}, in order and without gaps, stopping after {@code Closed};
     * the rest of the item holding the {@code max}th comes too (paid for whole). A read with a hole (a lagging
     * replica) returns what precedes it.
     *
     * @throws FeedFormatException when the first event cannot be read (those before it are returned first); the
     *         caller must stop the partition, never skip it
     */
    public EpochPage read(PartitionId partition, Checkpoint from, int max) {
        StreamSlice slice = index.readSlice(AppendsEpoch.stream(partition, from.epoch()),
                Read.forward(from.offset()).limit(max).toItemEnd());
        List<EpochRecord> out = new ArrayList<>();
        long expected = from.offset();
        boolean whole = true;
        for (StoredEvent e : slice.events()) {
            if (e.index() < expected) {
                continue;
            }
            if (e.index() > expected) {
                whole = false;
                break;
            }
            EpochEvent event;
            try {
                event = AppendsEpoch.decode(e);
            } catch (FeedFormatException unreadable) {
                if (out.isEmpty()) {
                    throw unreadable;
                }
                whole = false;
                break; // hand over what precedes it; the next read starts at it and fails there
            }
            out.add(EpochRecord.of(Checkpoint.of(from.epoch(), expected), e.timestamp(), event));
            expected++;
            if (event instanceof EpochEvent.Closed) {
                whole = false; // the next epoch follows
                break;
            }
        }
        return new EpochPage(out, whole && slice.atEnd());
    }
}
