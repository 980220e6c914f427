package io.appendsfeed.model.store.internal;

import io.appendsfeed.model.store.CapacityMeter.Capacity;
import io.appendsfeed.model.store.CapacityMeter;
import io.appendsfeed.model.store.StoreTables.WrongTableShapeException;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * A store client's DynamoDB calls, through the caller's client (so its settings hold for each one). Each asks
 * for its consumed capacity (unless the meter is {@link CapacityMeter#NONE}) and tells the meter; a write refused
 * on its condition, which DynamoDB reports no capacity for, goes to {@link CapacityMeter#refused}. Thread-safe.
 */
public final class MeteredDynamo {

    private final DynamoDbClient dynamo;
    private final String table;
    private final CapacityMeter meter;
    private final ReturnConsumedCapacity rcc;

    public MeteredDynamo(DynamoDbClient dynamo, String table, CapacityMeter meter) {
        this.dynamo = dynamo;
        this.table = table;
        this.meter = meter;
        this.rcc = meter == CapacityMeter.NONE ? ReturnConsumedCapacity.NONE : ReturnConsumedCapacity.TOTAL;
    }

    public String table() {
        return table;
    }

    GetItemResponse getItem(GetItemRequest.Builder b) {
        return call("GetItem", () -> dynamo.getItem(b.tableName(table).returnConsumedCapacity(rcc).build()),
                r -> Arrays.asList(r.consumedCapacity()), false);
    }

    void putItem(PutItemRequest.Builder b) {
        call("PutItem", () -> dynamo.putItem(b.tableName(table).returnConsumedCapacity(rcc).build()),
                r -> Arrays.asList(r.consumedCapacity()), true);
    }

    void updateItem(UpdateItemRequest.Builder b) {
        call("UpdateItem", () -> dynamo.updateItem(b.tableName(table).returnConsumedCapacity(rcc).build()),
                r -> Arrays.asList(r.consumedCapacity()), true);
    }

    /** The items' builders must already name the table. */
    void transactWriteItems(TransactWriteItemsRequest.Builder b) {
        call("TransactWriteItems", () -> dynamo.transactWriteItems(b.returnConsumedCapacity(rcc).build()),
                r -> r.hasConsumedCapacity() ? r.consumedCapacity() : List.of(), true);
    }

    QueryResponse query(QueryRequest.Builder b) {
        return call("Query", () -> dynamo.query(b.tableName(table).returnConsumedCapacity(rcc).build()),
                r -> Arrays.asList(r.consumedCapacity()), false);
    }

    private <R> R call(String op, Supplier<R> request, Function<R, List<ConsumedCapacity>> consumed, boolean write) {
        R response;
        try {
            response = request.get();
        } catch (ConditionalCheckFailedException e) {
            meter.refused(op, table);
            throw e;
        } catch (ResourceNotFoundException e) {
            throw WrongTableShapeException.missing(table, e);
        } catch (TransactionCanceledException e) {
            if (e.hasCancellationReasons()
                    && e.cancellationReasons().stream().anyMatch(r -> "ConditionalCheckFailed".equals(r.code()))) {
                meter.refused(op, table);
            }
            throw e;
        }
        if (rcc == ReturnConsumedCapacity.NONE) {
            return response;
        }
        Capacity capacity = Capacity.NONE;
        for (ConsumedCapacity c : consumed.apply(response)) {
            if (c != null) {
                double total = c.capacityUnits() == null ? 0 : c.capacityUnits();
                capacity = capacity.plus(new Capacity(
                        c.readCapacityUnits() != null ? c.readCapacityUnits() : write ? 0 : total,
                        c.writeCapacityUnits() != null ? c.writeCapacityUnits() : write ? total : 0));
            }
        }
        meter.consumed(op, table, capacity);
        return response;
    }
}
