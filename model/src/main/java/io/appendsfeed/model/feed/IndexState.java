package io.appendsfeed.model.feed;

import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The fold of {@code $AppendsIndex-0}: the active epoch of every partition it names. A missing
 * index, or a partition it does not name, means epoch 0 is active (some writers record
 * {@code Started} only from epoch 1 on). The partition count is recorded when the index is
 * created, as a {@code Started} at epoch 0 for every partition, and never changes.
 */
public record IndexState(SortedMap<PartitionId, EpochId> active) {

    public static final IndexState EMPTY = new IndexState(new TreeMap<>());

    public IndexState {
        active = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(active, "active")));
    }

    /** Epochs only move forwards: a stale or repeated {@code Started} changes nothing. */
    public IndexState evolve(IndexEvent event) {
        TreeMap<PartitionId, EpochId> next = new TreeMap<>(active);
        if (event instanceof IndexEvent.Started s) {
            next.merge(s.partition(), s.epoch(), (a, b) -> a.compareTo(b) >= 0 ? a : b);
        } else if (event instanceof IndexEvent.Snapshotted s) {
            for (Map.Entry<PartitionId, EpochId> e : s.active().entrySet()) {
                next.merge(e.getKey(), e.getValue(), (a, b) -> a.compareTo(b) >= 0 ? a : b);
            }
        }
        return new IndexState(next);
    }

    public static IndexState fold(IndexState state, Iterable<? extends IndexEvent> events) {
        IndexState s = state;
        for (IndexEvent e : events) {
            s = s.evolve(e);
        }
        return s;
    }

    public static IndexState fold(Iterable<? extends IndexEvent> events) {
        return fold(EMPTY, events);
    }

    /** The active epoch of a partition (epoch 0 when the index does not name it). */
    public EpochId activeEpoch(PartitionId partition) {
        return active.getOrDefault(partition, EpochId.ZERO);
    }

    /** Whether the index has been created (names any partition). */
    public boolean isCreated() {
        return !active.isEmpty();
    }

    /** The recorded partition count: one more than the highest partition named, 1 when none is. */
    public int partitions() {
        return active.isEmpty() ? 1 : active.lastKey().value() + 1;
    }

    /** The snapshot event that stands for this state. */
    public IndexEvent.Snapshotted snapshot() {
        return new IndexEvent.Snapshotted(active);
    }
}
