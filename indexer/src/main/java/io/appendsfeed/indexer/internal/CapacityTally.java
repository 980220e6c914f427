package io.appendsfeed.indexer.internal;

import io.appendsfeed.model.store.CapacityMeter.Capacity;
import io.appendsfeed.model.store.CapacityMeter;
import java.util.Map;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.function.Supplier;
import org.slf4j.MDC;

/**
 * Adds up the capacity of one batch's calls and passes every call on to the user's meter. Each thread
 * working for a batch is bound to its {@link Batch} ({@link #start()} on the calling thread, {@link #within}
 * on the pool's), so concurrent batches (KCL's shard processors share one indexer) never mix their figures.
 */
public final class CapacityTally implements CapacityMeter {

    /** One batch's running total. */
    public static final class Batch {
        private final DoubleAdder read = new DoubleAdder();
        private final DoubleAdder write = new DoubleAdder();

        public Capacity total() {
            return new Capacity(read.sum(), write.sum());
        }
    }

    private final CapacityMeter next;
    private final ThreadLocal<Batch> current = new ThreadLocal<>();

    public CapacityTally(CapacityMeter next) {
        this.next = next;
    }

    @Override
    public void consumed(String operation, String table, Capacity capacity) {
        Batch b = current.get();
        if (b != null) {
            b.read.add(capacity.readUnits());
            b.write.add(capacity.writeUnits());
        }
        next.consumed(operation, table, capacity);
    }

    @Override
    public void refused(String operation, String table) {
        next.refused(operation, table);
    }

    /** Starts a batch on this thread; {@link #end()} when it is done. */
    public Batch start() {
        Batch b = new Batch();
        current.set(b);
        return b;
    }

    public void end() {
        current.remove();
    }

    /**
     * {@code work} to run on another thread for the batch: bound to it there, with the calling
     * thread's MDC (the shard, the request id), both cleared after.
     *
     * @param batch null when nothing is tallied
     */
    public static <T> Supplier<T> within(CapacityTally tally, Batch batch, Supplier<T> work) {
        Map<String, String> mdc = MDC.getCopyOfContextMap();
        return () -> {
            if (mdc != null) {
                MDC.setContextMap(mdc);
            }
            if (tally != null) {
                tally.current.set(batch);
            }
            try {
                return work.get();
            } finally {
                if (tally != null) {
                    tally.current.remove();
                }
                MDC.clear();
            }
        };
    }
}
