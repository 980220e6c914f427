package io.appendsfeed.samples.bench.internal.lambda;

import io.appendsfeed.model.store.Capacity;
import io.appendsfeed.model.store.CapacityMeter;
import io.appendsfeed.samples.bench.internal.CapacityTally;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

/**
 * The handler's calls and capacity as its store clients tell their {@link CapacityMeter}: every call
 * the indexer makes to the index and store tables, however it is sent (through the SDK client, or the
 * direct {@code PutItem}, which a metering wrapper around the client would not see). Counts as
 * {@link io.appendsfeed.samples.bench.internal.MeteredClient} does: read calls, write calls (refused
 * ones included), writes refused by their condition, and transactions.
 */
final class CallMeter implements CapacityMeter {

    private static final Set<String> READS = Set.of("GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems");

    private final CapacityTally tally = new CapacityTally();
    private final LongAdder reads = new LongAdder();
    private final LongAdder writes = new LongAdder();
    private final LongAdder conditionFailures = new LongAdder();
    private final LongAdder transactions = new LongAdder();

    @Override
    public void consumed(String operation, String table, Capacity capacity) {
        tally.consumed(operation, table, capacity);
        count(operation);
    }

    @Override
    public void refused(String operation, String table) {
        count(operation);
        conditionFailures.increment();
    }

    private void count(String operation) {
        if (READS.contains(operation)) {
            reads.increment();
        } else {
            writes.increment();
            if (operation.equals("TransactWriteItems")) {
                transactions.increment();
            }
        }
    }

    CapacityTally tally() {
        return tally;
    }

    long reads() {
        return reads.sum();
    }

    long writes() {
        return writes.sum();
    }

    long conditionFailures() {
        return conditionFailures.sum();
    }

    long transactions() {
        return transactions.sum();
    }
}
