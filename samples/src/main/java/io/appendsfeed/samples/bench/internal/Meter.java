package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.model.store.CapacityMeter.Capacity;
import io.appendsfeed.model.store.CapacityMeter;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Capacity units and calls, summed; thread-safe. Fed as the indexer's {@link CapacityMeter}, or as an SDK interceptor
 * (the reader's client) that sends every call with {@code ReturnConsumedCapacity=TOTAL}, as the equinox-js driver does.
 */
public final class Meter implements CapacityMeter, ExecutionInterceptor {

    private static final Set<String> READS = Set.of("GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems");
    private static final Set<String> WRITES = Set.of("PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems");

    private final DoubleAdder readUnits = new DoubleAdder();
    private final DoubleAdder writeUnits = new DoubleAdder();
    private final LongAdder reads = new LongAdder();
    private final LongAdder writes = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private final LongAdder transactions = new LongAdder();

    @Override
    public void consumed(String operation, String table, Capacity capacity) {
        readUnits.add(capacity.readUnits());
        writeUnits.add(capacity.writeUnits());
        (READS.contains(operation) ? reads : writes).increment();
        if (operation.equals("TransactWriteItems")) {
            transactions.increment();
        }
    }

    @Override
    public void refused(String operation, String table) {
        consumed(operation, table, Capacity.NONE);
        refused.increment();
    }

    @Override
    public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
        SdkRequest r = context.request();
        return r.sdkFields().stream().filter(f -> f.memberName().equals("ReturnConsumedCapacity")).findFirst().map(f -> {
            SdkRequest.Builder b = r.toBuilder();
            f.set(b, "TOTAL");
            return b.build();
        }).orElse(r);
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        String op = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        if (!READS.contains(op) && !WRITES.contains(op)) {
            return;
        }
        Object got = context.response().getValueForField("ConsumedCapacity", Object.class).orElse(List.of());
        double units = (got instanceof List<?> l ? l : List.of(got)).stream()
                .mapToDouble(c -> c instanceof ConsumedCapacity cc && cc.capacityUnits() != null ? cc.capacityUnits() : 0).sum();
        boolean write = WRITES.contains(op);
        consumed(op, null, new Capacity(write ? 0 : units, write ? units : 0));
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        if (context.exception() instanceof ConditionalCheckFailedException || context.exception() instanceof TransactionCanceledException) {
            refused(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME), null);
        }
    }

    /** {@code writes} include the {@code refused} ones (DynamoDB Local reports no capacity for them; AWS charges them). */
    public record Totals(double readUnits, double writeUnits, long reads, long writes, long refused, long transactions) {}

    /** What was counted since the last take, counting from zero again. */
    public Totals take() {
        return new Totals(readUnits.sumThenReset(), writeUnits.sumThenReset(), reads.sumThenReset(), writes.sumThenReset(),
                refused.sumThenReset(), transactions.sumThenReset());
    }
}
