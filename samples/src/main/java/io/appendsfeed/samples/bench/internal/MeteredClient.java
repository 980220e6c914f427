package io.appendsfeed.samples.bench.internal;

import java.util.List;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
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
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * A client that asks for the consumed capacity of every item call and adds it to a tally, for
 * components that take a {@link DynamoDbClient} but no {@code CapacityMeter} (the reader SDK).
 * Only the calls those components make are passed through; any other throws
 * {@link UnsupportedOperationException} (the interface's default), so nothing goes unmetered unnoticed.
 */
public final class MeteredClient implements DynamoDbClient {

    private final DynamoDbClient dynamo;
    private final CapacityTally tally;

    public MeteredClient(DynamoDbClient dynamo, CapacityTally tally) {
        this.dynamo = dynamo;
        this.tally = tally;
    }

    @Override
    public GetItemResponse getItem(GetItemRequest r) {
        GetItemResponse out = dynamo.getItem(r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build());
        add(out.consumedCapacity(), false);
        return out;
    }

    @Override
    public PutItemResponse putItem(PutItemRequest r) {
        PutItemResponse out = dynamo.putItem(r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build());
        add(out.consumedCapacity(), true);
        return out;
    }

    @Override
    public UpdateItemResponse updateItem(UpdateItemRequest r) {
        UpdateItemResponse out = dynamo.updateItem(r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build());
        add(out.consumedCapacity(), true);
        return out;
    }

    @Override
    public DeleteItemResponse deleteItem(DeleteItemRequest r) {
        DeleteItemResponse out = dynamo.deleteItem(r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build());
        add(out.consumedCapacity(), true);
        return out;
    }

    @Override
    public QueryResponse query(QueryRequest r) {
        QueryResponse out = dynamo.query(r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build());
        add(out.consumedCapacity(), false);
        return out;
    }

    @Override
    public BatchGetItemResponse batchGetItem(BatchGetItemRequest r) {
        BatchGetItemResponse out = dynamo.batchGetItem(r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build());
        addAll(out.consumedCapacity(), false);
        return out;
    }

    @Override
    public TransactWriteItemsResponse transactWriteItems(TransactWriteItemsRequest r) {
        TransactWriteItemsResponse out = dynamo.transactWriteItems(
                r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build());
        addAll(out.consumedCapacity(), true);
        return out;
    }

    @Override
    public DescribeTableResponse describeTable(DescribeTableRequest r) {
        return dynamo.describeTable(r);
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
