package io.appendsfeed.indexer.internal;

import io.appendsfeed.model.store.Capacity;
import io.appendsfeed.model.store.CapacityMeter;

/**
 * Adds up, per thread, the capacity of the index table's calls between {@link #start()} and
 * {@link #take()}, and passes every call on to the user's meter. A batch is ingested on the thread
 * that hands it in (partitions one after another), so the thread's tally is that batch's capacity
 * even while other threads (KCL's shard processors) ingest other batches on the same indexer.
 */
public final class CapacityTally implements CapacityMeter {

    private final CapacityMeter next;
    private final ThreadLocal<double[]> tally = ThreadLocal.withInitial(() -> new double[2]);

    public CapacityTally(CapacityMeter next) {
        this.next = next;
    }

    @Override
    public void consumed(String operation, String table, Capacity capacity) {
        double[] t = tally.get();
        t[0] += capacity.readUnits();
        t[1] += capacity.writeUnits();
        next.consumed(operation, table, capacity);
    }

    /** Starts this thread's tally from zero. */
    public void start() {
        double[] t = tally.get();
        t[0] = 0;
        t[1] = 0;
    }

    /** What this thread's calls consumed since {@link #start()}. */
    public Capacity take() {
        double[] t = tally.get();
        return new Capacity(t[0], t[1]);
    }
}
