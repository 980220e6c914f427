package io.appendsfeed.reader.internal.metrics;

import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.Capacity;
import io.appendsfeed.model.store.CapacityMeter;
import io.appendsfeed.reader.internal.LogContext;
import java.util.HashMap;
import java.util.Map;

/**
 * Adds up the read capacity of the reader's calls per partition: the partition the calling thread
 * works on ({@link LogContext#currentPartition()}), or none (lease upkeep, the lag sampler).
 */
public final class ReaderCapacity implements CapacityMeter {

    /** The key of capacity not tied to a partition. */
    public static final PartitionId NONE = null;

    private final Map<PartitionId, Double> readUnits = new HashMap<>();

    @Override
    public synchronized void consumed(String operation, String table, Capacity capacity) {
        readUnits.merge(LogContext.currentPartition(), capacity.readUnits(), Double::sum);
    }

    /** What was consumed since the last call, per partition (the null key: no partition), and starts again. */
    public synchronized Map<PartitionId, Double> drain() {
        Map<PartitionId, Double> out = new HashMap<>(readUnits);
        readUnits.clear();
        return out;
    }
}
