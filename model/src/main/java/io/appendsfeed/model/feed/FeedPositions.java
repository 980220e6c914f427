package io.appendsfeed.model.feed;

import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.store.Tip;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Positions in a partition found from the index table: the tail, the first position indexed at or
 * after a time (binary search over epochs, then over offsets), and the number of epoch events
 * between two positions. Relies on index times {@code t} not decreasing within a partition, which
 * holds for the one indexer that writes a partition at a time.
 *
 * <p>Epoch Tips are read eventually consistent: the tail is what lag reports and a start at the end
 * use, and one a replica has not caught up with yet is a position a moment earlier (a lag reported
 * a little low, a start that hands over a few more events), never one past what exists. A strongly
 * consistent read costs twice as much, and another implementation's epoch Tip is large (equinox-js
 * keeps up to 48 KiB of events in it: 12 read units a read, against 6).
 */
public final class FeedPositions {

    private final StoreClient index;
    /** Lengths of closed epochs, which never change. */
    private final Map<FeedStreams.EpochAddress, Long> closedLengths = new ConcurrentHashMap<>();

    public FeedPositions(StoreClient index) {
        this.index = index;
    }

    /** The partition count recorded in the index (1 when there is no index yet). */
    public int partitions() {
        return AppendsIndex.read(index).partitions();
    }

    /** The position after the last epoch event of the partition (the start of the next epoch once the active one closed). */
    public Checkpoint tail(PartitionId p) {
        EpochId e = AppendsIndex.read(index).activeEpoch(p);
        while (true) {
            Optional<Tip> tip = index.readTip(AppendsEpoch.stream(p, e), false);
            if (tip.isEmpty()) {
                return Checkpoint.of(e, 0);
            }
            if (!isClosed(tip.get())) {
                return Checkpoint.of(e, tip.get().version());
            }
            e = e.next();
        }
    }

    /**
     * The first position whose epoch event was indexed at or after {@code time}: every event written
     * at or after {@code time} is at or after it, since index time is never before store write time.
     */
    public Checkpoint firstIndexedAtOrAfter(PartitionId p, Instant time) {
        Checkpoint tail = tail(p);
        int last = tail.epoch().value();
        Instant first0 = timeAt(p, EpochId.ZERO, 0);
        if (first0 == null || !first0.isBefore(time)) {
            return Checkpoint.START;
        }
        int lo = 0;              // first event of epoch lo is before time
        int hi = last + 1;       // epochs from hi on start at or after time (or are empty)
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            Instant t = timeAt(p, EpochId.of(mid), 0);
            if (t != null && t.isBefore(time)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        EpochId epoch = EpochId.of(lo);
        long length = length(p, epoch);
        long before = 0;        // event at offset `before` is before time
        long after = length;    // events from `after` on are at or after time
        while (after - before > 1) {
            long mid = (before + after) >>> 1;
            Instant t = timeAt(p, epoch, mid);
            if (t != null && t.isBefore(time)) {
                before = mid;
            } else {
                after = mid;
            }
        }
        if (after >= length) {
            return isClosed(p, epoch) ? Checkpoint.of(epoch.next(), 0) : Checkpoint.of(epoch, length);
        }
        return Checkpoint.of(epoch, after);
    }

    /** Epoch events from {@code from} (inclusive) to {@code to} (exclusive). */
    public long distance(PartitionId p, Checkpoint from, Checkpoint to) {
        if (to.compareTo(from) <= 0) {
            return 0;
        }
        if (from.epoch().equals(to.epoch())) {
            return to.offset() - from.offset();
        }
        long n = Math.max(0, length(p, from.epoch()) - from.offset());
        for (int e = from.epoch().value() + 1; e < to.epoch().value(); e++) {
            n += length(p, EpochId.of(e));
        }
        return n + to.offset();
    }

    /** Index time of the epoch event at a position, or null when there is none. */
    public Instant timeAt(PartitionId p, Checkpoint c) {
        return timeAt(p, c.epoch(), c.offset());
    }

    private Instant timeAt(PartitionId p, EpochId e, long offset) {
        List<StoredEvent> one = index.readAll(AppendsEpoch.stream(p, e), Read.forward(offset).limit(1));
        return one.isEmpty() || one.get(0).index() != offset ? null : one.get(0).timestamp();
    }

    private long length(PartitionId p, EpochId e) {
        FeedStreams.EpochAddress key = new FeedStreams.EpochAddress(p, e);
        Long known = closedLengths.get(key);
        if (known != null) {
            return known;
        }
        Optional<Tip> tip = index.readTip(key.stream(), false);
        if (tip.isEmpty()) {
            return 0;
        }
        if (isClosed(tip.get())) {
            closedLengths.put(key, tip.get().version());
        }
        return tip.get().version();
    }

    private boolean isClosed(PartitionId p, EpochId e) {
        return index.readTip(AppendsEpoch.stream(p, e), false).map(this::isClosed).orElse(false);
    }

    private boolean isClosed(Tip tip) {
        if (tip.version() == 0) {
            return false;
        }
        if (!tip.events().isEmpty()) {
            return tip.events().get(tip.events().size() - 1).type().equals(EpochEvent.CLOSED);
        }
        List<StoredEvent> last = index.readAll(tip.stream(), Read.backward().limit(1));
        return !last.isEmpty() && last.get(0).type().equals(EpochEvent.CLOSED);
    }

    /** How long ago a position's epoch event was indexed, or zero when there is none. */
    public Duration age(PartitionId p, Checkpoint c, Instant now) {
        Instant t = timeAt(p, c);
        return t == null || t.isAfter(now) ? Duration.ZERO : Duration.between(t, now);
    }
}
