package io.appendsfeed.samples.bench.internal;

import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * A client that sends every item call with {@code ReturnConsumedCapacity=TOTAL} and adds what comes
 * back to a tally, counting read calls, write calls and writes refused by their condition. It meters
 * any component that takes a {@link DynamoDbClient} (the reader SDK, the indexer), the same way the
 * benchmark's equinox-js driver meters equinox-js: at the client, whatever the component asks for.
 * Only item and table-description calls are passed through; any other throws
 * {@link UnsupportedOperationException} (the interface's default), so nothing goes unmetered unnoticed.
 */
public final class MeteredClient implements DynamoDbClient {

    private final DynamoDbClient dynamo;
    private final CapacityTally tally;
    private final LongAdder reads = new LongAdder();
    private final LongAdder writes = new LongAdder();
    private final LongAdder conditionFailures = new LongAdder();
    private final LongAdder transactions = new LongAdder();

    public MeteredClient(DynamoDbClient dynamo, CapacityTally tally) {
        this.dynamo = dynamo;
        this.tally = tally;
    }

    /** Read calls made (GetItem, Query, Scan, BatchGetItem, TransactGetItems). */
    public long reads() {
        return reads.sum();
    }

    /** Write calls made, refused ones included. */
    public long writes() {
        return writes.sum();
    }

    /** Writes refused by their condition ({@code ConditionalCheckFailed}, a cancelled transaction): conflicts. */
    public long conditionFailures() {
        return conditionFailures.sum();
    }

    /** {@code TransactWriteItems} calls made (also counted as writes): DynamoDB charges their items twice. */
    public long transactions() {
        return transactions.sum();
    }

    public CapacityTally tally() {
        return tally;
    }

    @Override
    public GetItemResponse getItem(GetItemRequest r) {
        GetItemResponse out = read(() -> dynamo.getItem(r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build()));
        add(out.consumedCapacity(), false);
        return out;
    }

    @Override
    public QueryResponse query(QueryRequest r) {
        QueryResponse out = read(() -> dynamo.query(r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build()));
        add(out.consumedCapacity(), false);
        return out;
    }

    @Override
    public ScanResponse scan(ScanRequest r) {
        ScanResponse out = read(() -> dynamo.scan(r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build()));
        add(out.consumedCapacity(), false);
        return out;
    }

    @Override
    public BatchGetItemResponse batchGetItem(BatchGetItemRequest r) {
        BatchGetItemResponse out = read(() -> dynamo.batchGetItem(
                r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build()));
        addAll(out.consumedCapacity(), false);
        return out;
    }

    @Override
    public TransactGetItemsResponse transactGetItems(TransactGetItemsRequest r) {
        TransactGetItemsResponse out = read(() -> dynamo.transactGetItems(
                r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build()));
        addAll(out.consumedCapacity(), false);
        return out;
    }

    @Override
    public PutItemResponse putItem(PutItemRequest r) {
        PutItemResponse out = write(() -> dynamo.putItem(r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build()));
        add(out.consumedCapacity(), true);
        return out;
    }

    @Override
    public UpdateItemResponse updateItem(UpdateItemRequest r) {
        UpdateItemResponse out = write(() -> dynamo.updateItem(
                r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build()));
        add(out.consumedCapacity(), true);
        return out;
    }

    @Override
    public DeleteItemResponse deleteItem(DeleteItemRequest r) {
        DeleteItemResponse out = write(() -> dynamo.deleteItem(
                r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build()));
        add(out.consumedCapacity(), true);
        return out;
    }

    @Override
    public BatchWriteItemResponse batchWriteItem(BatchWriteItemRequest r) {
        BatchWriteItemResponse out = write(() -> dynamo.batchWriteItem(
                r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build()));
        addAll(out.consumedCapacity(), true);
        return out;
    }

    @Override
    public TransactWriteItemsResponse transactWriteItems(TransactWriteItemsRequest r) {
        transactions.increment();
        TransactWriteItemsResponse out = write(() -> dynamo.transactWriteItems(
                r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build()));
        addAll(out.consumedCapacity(), true);
        return out;
    }

    @Override
    public DescribeTableResponse describeTable(DescribeTableRequest r) {
        return dynamo.describeTable(r);
    }

    private <T> T read(Supplier<T> call) {
        reads.increment();
        return call.get();
    }

    /** A refused write is counted and rethrown: the caller decides what a conflict means. */
    private <T> T write(Supplier<T> call) {
        writes.increment();
        try {
            return call.get();
        } catch (ConditionalCheckFailedException | TransactionCanceledException e) {
            conditionFailures.increment();
            throw e;
        }
    }

    private void addAll(List<ConsumedCapacity> cs, boolean write) {
        if (cs != null) {
            cs.forEach(c -> add(c, write));
        }
    }

    /** DynamoDB may report only the total; it is then a read or a write by the call's kind (as the store client does). */
    private void add(ConsumedCapacity c, boolean write) {
        if (c != null) {
            double total = orZero(c.capacityUnits());
            double read = c.readCapacityUnits() != null ? c.readCapacityUnits() : write ? 0 : total;
            double written = c.writeCapacityUnits() != null ? c.writeCapacityUnits() : write ? total : 0;
            tally.add(read, written);
        }
    }

    private static double orZero(Double d) {
        return d == null ? 0 : d;
    }

    @Override
    public String serviceName() {
        return dynamo.serviceName();
    }

    /** The wrapped client belongs to the caller: closing this one does not close it. */
    @Override
    public void close() {
        // nothing of our own to release
    }
}
