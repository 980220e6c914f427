package io.appendsfeed.indexer.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.PartitionId;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where streams stand in a partition's closed epochs, so that a redelivery arriving after the
 * epoch moved on is still recognised. Walks back from the active epoch's predecessor and stops at
 * the first epoch closed before the horizon: a span written at time T can only have been ingested
 * into an epoch still open at T. Closed epochs never change, so their states and close times are
 * cached (the states in a small LRU). Not thread-safe: one per partition ingester.
 */
public final class PriorEpochs {

    /** Closed epoch states kept in memory per partition. */
    public static final int CACHED_EPOCHS = 8;

    private final DynamoEpochStore store;
    private final PartitionId partition;
    private final Map<EpochId, Optional<Instant>> closedAt = new HashMap<>();
    private final Map<EpochId, EpochState> states = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<EpochId, EpochState> eldest) {
            return size() > CACHED_EPOCHS;
        }
    };
    private long epochsRead;

    public PriorEpochs(DynamoEpochStore store, PartitionId partition) {
        this.store = store;
        this.partition = partition;
    }

    /** Remembers a state this indexer closed itself, saving a read later. */
    public void remember(EpochState closed) {
        if (closed.isClosed()) {
            closedAt.put(closed.epoch(), Optional.of(closed.closedAt()));
            states.put(closed.epoch(), closed);
        }
    }

    /**
     * @param active the active epoch; epochs before it are consulted
     * @param streams streams the active epoch does not hold
     * @param horizon epochs closed before this cannot hold any of the spans
     * @return next index per stream, for those found
     */
    public Map<StreamName, Long> lookup(EpochId active, Collection<StreamName> streams, Instant horizon) {
        Map<StreamName, Long> found = new HashMap<>();
        Set<StreamName> missing = new HashSet<>(streams);
        for (int e = active.value() - 1; e >= 0 && !missing.isEmpty(); e--) {
            EpochId epoch = EpochId.of(e);
            Optional<Instant> closed = closedAt.computeIfAbsent(epoch, x -> store.closedAt(partition, x));
            if (closed.isPresent() && closed.get().isBefore(horizon)) {
                break;
            }
            EpochState state = states.get(epoch);
            if (state == null) {
                state = store.load(partition, epoch);
                epochsRead++;
                if (state.isClosed()) {
                    states.put(epoch, state);
                } else {
                    closedAt.remove(epoch); // not closed (yet, or by another implementation): ask again next time
                }
            }
            for (var it = missing.iterator(); it.hasNext(); ) {
                StreamName s = it.next();
                long next = state.nextIndex(s);
                if (next >= 0) {
                    found.put(s, next);
                    it.remove();
                }
            }
        }
        return found;
    }

    /** Closed epochs read from the table so far (for figures and tests). */
    public long epochsRead() {
        return epochsRead;
    }
}
