package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.model.store.Capacity;
import io.appendsfeed.model.store.CapacityMeter;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/** Sums the capacity units and calls a client reports; thread-safe. */
public final class CapacityTally implements CapacityMeter {

    private final DoubleAdder read = new DoubleAdder();
    private final DoubleAdder write = new DoubleAdder();
    private final LongAdder calls = new LongAdder();
    private final LongAdder refused = new LongAdder();

    @Override
    public void consumed(String operation, String table, Capacity capacity) {
        add(capacity.readUnits(), capacity.writeUnits());
    }

    @Override
    public void refused(String operation, String table) {
        refused.increment();
    }

    /** Writes DynamoDB refused by their condition, as the client that sent them heard. */
    public long refused() {
        return refused.sum();
    }

    void add(double readUnits, double writeUnits) {
        read.add(readUnits);
        write.add(writeUnits);
        calls.increment();
    }

    public double readUnits() {
        return read.sum();
    }

    public double writeUnits() {
        return write.sum();
    }

    public long calls() {
        return calls.sum();
    }
}
