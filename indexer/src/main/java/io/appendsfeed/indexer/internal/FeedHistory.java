package io.appendsfeed.indexer.internal;

import io.appendsfeed.indexer.SourceSpan;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.EpochState;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Span;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Places a stream that neither the active epoch nor the recent closed ones hold ({@link PriorEpochs})
 * and whose span does not start at 0: is it in an older epoch, and up to where?
 *
 * <p>An event written at time T is indexed, if ever, while the source can still deliver it: within
 * the redelivery window after T (DynamoDB Streams keeps records 24 hours), give or take the clock
 * skew. So it is in one of the epochs open during [T − skew, T + window + skew], and epochs are in
 * time order: a binary search over their close times finds the first, and the search stops at the
 * first epoch that holds the stream. The times come from the record's Tip image (every event still
 * in the Tip), or, for the event just before a span that calved the Tip, from the store table; so do
 * the times of older events the source did not keep (a large Lambda batch keeps only the new events'
 * and the one before them).
 *
 * <p>Cost: the close time of O(log epochs) epochs (each read once per process), and the epochs open
 * around the stream's previous write, usually one. Only an event that truly never reached the feed
 * makes it read every epoch of its window, and that ends in a refusal or a heal. Not thread-safe:
 * one per partition ingester. Events indexed by a backfill long after they were written are not
 * where this looks: that is what {@code storePredatesFeed} declares.
 */
public final class FeedHistory {

    /** Epochs whose streams are kept between look-ups (an epoch holds at most 100,000 streams by default). */
    private static final int CACHED_EPOCHS = 4;

    /** Where a stream stands in the feed. */
    sealed interface Placement {
        /** The feed holds the stream up to {@code next}. */
        record Found(long next) implements Placement {}
        /** None of its events is in the feed, and the Tip holds them all from index 0. */
        record Never() implements Placement {}
        /** Its event before the span is not in the feed, and the Tip does not hold everything missing. */
        record Unplaced() implements Placement {}
        /** A time needed to look was unknown (no {@code t}; or the previous event is in a calf and no store table is configured). */
        record Unknown() implements Placement {}
    }

    /** When the event at {@code index} of {@code stream} was written, read from the store; null when unknown. */
    @FunctionalInterface
    public interface StoreTimes {
        Instant writtenAt(StreamName stream, long index);
    }

    private final AppendsEpoch epochs;
    private final PartitionId partition;
    private final Duration window;
    private final Duration skew;
    private final StoreTimes store;
    private final Map<Integer, Instant> closedAt = new HashMap<>();
    private final Map<Integer, EpochState> cached = new LinkedHashMap<>(8, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, EpochState> eldest) {
            return size() > CACHED_EPOCHS;
        }
    };

    FeedHistory(AppendsEpoch epochs, PartitionId partition, Duration window, Duration skew, StoreTimes store) {
        this.epochs = epochs;
        this.partition = partition;
        this.window = window;
        this.skew = skew;
        this.store = store;
    }

    /** @param active the active epoch: the epochs before it are searched */
    Placement place(SourceSpan in, EpochId active) {
        StreamName stream = in.span().stream();
        long k = in.span().index();
        Span tip = in.tip();
        long tipFirst = tip == null ? k : tip.index();
        if (active.value() == 0) {
            // no epoch before the active one, which does not hold the stream: no time needs reading
            return tipFirst == 0 ? new Placement.Never() : new Placement.Unplaced();
        }
        Set<Integer> checked = new HashSet<>();
        if (tipFirst <= k - 1) {
            for (long j = k - 1; j >= tipFirst; j--) {
                Instant t = in.times().writtenAt(j);
                if (t == null && store != null) {
                    t = store.writtenAt(stream, j); // a source may carry only the times next to the span (the Lambda's large batches)
                }
                if (t == null) {
                    return new Placement.Unknown();
                }
                long next = search(stream, t, active.value(), checked);
                if (next >= 0) {
                    return new Placement.Found(next);
                }
            }
            return tipFirst == 0 ? new Placement.Never() : new Placement.Unplaced();
        }
        Instant t = store == null ? null : store.writtenAt(stream, k - 1);
        if (t == null) {
            return new Placement.Unknown();
        }
        long next = search(stream, t, active.value(), checked);
        return next >= 0 ? new Placement.Found(next) : new Placement.Unplaced();
    }

    /** The stream's next index in the first epoch before {@code active} open around {@code t} that holds it, or -1. */
    private long search(StreamName stream, Instant t, int active, Set<Integer> checked) {
        Instant from = t.minus(skew);
        Instant to = t.plus(window).plus(skew);
        int lo = 0;
        int hi = active; // the first closed epoch that closed at or after `from` is in [lo, hi]
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (closedAt(mid).isBefore(from)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for (int e = lo; e < active; e++) {
            if (e > lo && closedAt(e - 1).isAfter(to)) {
                break; // opened after the window: cannot hold an event written at t
            }
            if (checked.add(e)) {
                long next = state(e).nextIndex(stream);
                if (next >= 0) {
                    return next;
                }
            }
        }
        return -1;
    }

    /** Epochs before the active one are closed; one another implementation left without {@code Closed} counts as open forever. */
    private Instant closedAt(int epoch) {
        return closedAt.computeIfAbsent(epoch, e -> epochs.closedAt(partition, EpochId.of(e)).orElse(Instant.MAX));
    }

    private EpochState state(int epoch) {
        EpochState s = cached.get(epoch);
        if (s == null) {
            s = epochs.load(partition, EpochId.of(epoch));
            cached.put(epoch, s);
        }
        return s;
    }
}
