package io.appendsfeed.indexer.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.AppendsEpoch.EpochState;
import io.appendsfeed.model.feed.PartitionId;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where streams the active epoch does not hold stand in the partition's closed epochs (DESIGN.md, "Exactly
 * once across epochs"). The closed epochs below the active one, without a hole, are merged into one map
 * stream → (next index, newest epoch holding it): a stream's events are in the feed in stream order, so the
 * newest epoch holding it says where the feed has it. The look-up goes back, while a stream is missing,
 * down to the first epoch closed before the batch's horizon: an epoch closed before a record was made holds
 * none of its events. Closed epochs never change, so each is read once while the map stays under
 * {@link #MAX_STREAMS}. Not thread-safe.
 */
public final class PriorEpochs {

    /** Streams held in the merged map; past this it is dropped and rebuilt from the newest epochs. */
    public static final int MAX_STREAMS = 1_000_000;

    private record Seen(long next, int epoch) {}

    private final AppendsEpoch store;
    private final PartitionId partition;
    private final Map<EpochId, Optional<Instant>> closedAt = new HashMap<>();
    private final Map<StreamName, Seen> merged = new HashMap<>();
    /** The merged range of closed epochs, [from, to]; empty when from > to. */
    private int from = 0;
    private int to = -1;

    public PriorEpochs(AppendsEpoch store, PartitionId partition) {
        this.store = store;
        this.partition = partition;
    }

    /** Merges an epoch this indexer saw closed when it extends the range (or starts it), saving a read of it. */
    public void remember(EpochState closed) {
        if (closed.isClosed()) {
            closedAt.put(closed.epoch(), Optional.of(closed.closedAt()));
            if (from > to) {
                emptyAbove(closed.epoch().value() - 1);
                mergeNewer(closed);
            } else if (closed.epoch().value() == to + 1) {
                mergeNewer(closed);
            }
        }
    }

    /**
     * Where the streams the active epoch does not hold stand in the closed epochs back to the horizon. A stream
     * none of them holds is left out, to be taken as it starts; when every epoch was read it was never in the
     * feed, so it starts at 0 (a later span is healed or refused), unless the store predates the feed.
     *
     * @param horizon epochs closed before this hold none of the batch's events
     */
    public Map<StreamName, Long> lookup(EpochState active, Collection<StreamName> streams, Instant horizon, boolean storePredatesFeed) {
        Set<StreamName> missing = new HashSet<>();
        streams.stream().filter(s -> active.nextIndex(s) < 0).forEach(missing::add);
        int top = active.epoch().value() - 1;
        Map<StreamName, Long> found = new HashMap<>();
        if (top >= 0 && !missing.isEmpty()) {
            catchUp(top);
            resolve(missing, found);
        }
        int lowest = top < 0 ? 0 : from;
        // below the merged range: only while something is missing, and not past the horizon
        for (int e = lowest - 1; e >= 0 && !missing.isEmpty() && !closedBefore(e, horizon); e--) {
            EpochState state = store.load(partition, EpochId.of(e));
            lowest = e;
            if (e != from - 1 || !state.isClosed() || merged.size() + state.next().size() > MAX_STREAMS) {
                consult(state, missing, found); // cannot be merged (not closed, too big, or the range is broken): used, not kept
                continue;
            }
            state.next().forEach((s, next) -> merged.putIfAbsent(s, new Seen(next, state.epoch().value())));
            from = e;
            resolve(missing, found);
        }
        if (lowest == 0 && !storePredatesFeed) {
            missing.forEach(stream -> found.put(stream, 0L));
        }
        return found;
    }

    /** Brings the merged range up to {@code top}, reading the epochs closed since (by anyone). */
    private void catchUp(int top) {
        if (from > to || to > top || top - to > 64) {
            // nothing merged yet, or far behind: start afresh at the top rather than read every epoch between
            emptyAbove(top);
            return;
        }
        for (int e = to + 1; e <= top; e++) {
            EpochState state = store.load(partition, EpochId.of(e));
            if (!state.isClosed()) {
                emptyAbove(top); // cannot merge past an epoch that may still change: start afresh
                return;
            }
            mergeNewer(state);
        }
    }

    private void mergeNewer(EpochState state) {
        if (merged.size() + state.next().size() > MAX_STREAMS) {
            emptyAbove(state.epoch().value());
            return;
        }
        state.next().forEach((s, next) -> merged.put(s, new Seen(next, state.epoch().value())));
        to = state.epoch().value();
    }

    /** Empties the merged range, to grow from just above {@code epoch} (and down from it). */
    private void emptyAbove(int epoch) {
        merged.clear();
        from = epoch + 1;
        to = epoch;
    }

    /** Streams the merged range holds leave {@code missing}, with where the newest epoch holding them has them. */
    private void resolve(Set<StreamName> missing, Map<StreamName, Long> found) {
        for (var it = missing.iterator(); it.hasNext(); ) {
            StreamName s = it.next();
            Seen seen = merged.get(s);
            if (seen != null) {
                found.put(s, seen.next());
                it.remove();
            }
        }
    }

    private static void consult(EpochState state, Set<StreamName> missing, Map<StreamName, Long> found) {
        for (var it = missing.iterator(); it.hasNext(); ) {
            StreamName s = it.next();
            long next = state.nextIndex(s);
            if (next >= 0) {
                found.put(s, next);
                it.remove();
            }
        }
    }

    private boolean closedBefore(int epoch, Instant horizon) {
        Optional<Instant> closed = closedAt.computeIfAbsent(EpochId.of(epoch), x -> store.closedAt(partition, x));
        if (closed.isEmpty()) {
            closedAt.remove(EpochId.of(epoch)); // not closed (yet, or by another implementation): ask again next time
            return false;
        }
        return closed.get().isBefore(horizon);
    }
}
