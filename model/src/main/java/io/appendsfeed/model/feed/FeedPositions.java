package io.appendsfeed.model.feed;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
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
import java.util.function.LongPredicate;

/**
 * Positions in a partition found from the index table: the tail, the first position indexed at or after a time,
 * and the distance between two positions. Relies on index times not decreasing within a partition (one indexer
 * writes a partition at a time). Epoch Tips are read eventually consistent: a lagging replica gives a position a
 * moment earlier, never one past what exists.
 */
public final class FeedPositions {

    private final StoreClient index;
    /** Lengths of closed epochs, which never change. */
    private final Map<StreamName, Long> closedLengths = new ConcurrentHashMap<>();

    public FeedPositions(StoreClient index) {
        this.index = index;
    }

    /** The partition count recorded in the index (1 when there is none yet). */
    public int partitions() {
        return AppendsIndex.read(index).partitions();
    }

    /** The position after the last epoch event of the partition (the start of the next epoch once the active one closed). */
    public Checkpoint tail(PartitionId p) {
        for (EpochId e = AppendsIndex.read(index).activeEpoch(p); ; e = e.next()) {
            Optional<Tip> tip = index.readTip(AppendsEpoch.stream(p, e), false);
            if (tip.isEmpty() || !isClosed(tip.get())) {
                return Checkpoint.of(e, tip.map(Tip::version).orElse(0L));
            }
        }
    }

    /** The first position indexed at or after {@code time}: every event written since is after it (index time follows write time). */
    public Checkpoint firstIndexedAtOrAfter(PartitionId p, Instant time) {
        if (!before(timeAt(p, EpochId.ZERO, 0), time)) {
            return Checkpoint.START;
        }
        int epochs = tail(p).epoch().value() + 1;
        EpochId epoch = EpochId.of((int) firstNot(0, epochs, e -> before(timeAt(p, EpochId.of((int) e), 0), time)) - 1);
        long length = length(p, epoch);
        long offset = firstNot(0, length, o -> before(timeAt(p, epoch, o), time));
        if (offset < length) {
            return Checkpoint.of(epoch, offset);
        }
        boolean closed = index.readTip(AppendsEpoch.stream(p, epoch), false).map(this::isClosed).orElse(false);
        return closed ? Checkpoint.of(epoch.next(), 0) : Checkpoint.of(epoch, length);
    }

    /** The first {@code n} in {@code (lo, hi]} where {@code before} fails, given it holds at {@code lo} and fails from some {@code n} on. */
    private static long firstNot(long lo, long hi, LongPredicate before) {
        while (hi - lo > 1) {
            long mid = (lo + hi) >>> 1;
            if (before.test(mid)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    private static boolean before(Instant t, Instant time) {
        return t != null && t.isBefore(time);
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

    /** How long ago a position's epoch event was indexed, or zero when there is none. */
    public Duration age(PartitionId p, Checkpoint c, Instant now) {
        Instant t = timeAt(p, c.epoch(), c.offset());
        return t == null || t.isAfter(now) ? Duration.ZERO : Duration.between(t, now);
    }

    /** Index time of the epoch event at a position, or null when there is none. */
    private Instant timeAt(PartitionId p, EpochId e, long offset) {
        List<StoredEvent> one = index.readAll(AppendsEpoch.stream(p, e), Read.forward(offset).limit(1));
        return one.isEmpty() || one.get(0).index() != offset ? null : one.get(0).timestamp();
    }

    private long length(PartitionId p, EpochId e) {
        StreamName stream = AppendsEpoch.stream(p, e);
        Long known = closedLengths.get(stream);
        if (known != null) {
            return known;
        }
        Optional<Tip> tip = index.readTip(stream, false);
        if (tip.isPresent() && isClosed(tip.get())) {
            closedLengths.put(stream, tip.get().version());
        }
        return tip.map(Tip::version).orElse(0L);
    }

    /** From the Tip's last event when it holds events (written Tip-first), else the epoch's. */
    private boolean isClosed(Tip tip) {
        List<StoredEvent> last = tip.version() == 0 ? List.of() : !tip.events().isEmpty() ? tip.events()
                : index.readAll(tip.stream(), Read.backward().limit(1));
        return !last.isEmpty() && last.get(last.size() - 1).type().equals(EpochEvent.CLOSED);
    }
}
