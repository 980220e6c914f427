package io.appendsfeed.model.store.internal;

import io.appendsfeed.model.store.Capacity;
import io.appendsfeed.model.store.CapacityMeter;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import io.appendsfeed.model.store.MissingTableException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * The DynamoDB calls the store makes, each asking for its consumed capacity (unless the meter is
 * {@link CapacityMeter#NONE}) and telling the meter. DynamoDB does not report the capacity of a
 * write whose condition failed, so such calls count as zero here; the meter is told of them with
 * {@link CapacityMeter#refused}.
 *
 * <p>Every call goes through the caller's {@link DynamoDbClient}, so that its settings (endpoint
 * rules such as FIPS, HTTP client and proxy, interceptors, retries, metrics) hold for each one.
 */
public final class MeteredDynamo {

    /** A response and the capacity it consumed. */
    public record Metered<R>(R response, Capacity capacity) {}

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

    public Metered<GetItemResponse> getItem(GetItemRequest.Builder b) {
        return call("GetItem", () -> dynamo.getItem(b.tableName(table).returnConsumedCapacity(rcc).build()),
                r -> List.of(nonNull(r.consumedCapacity())), false);
    }

    public Metered<PutItemResponse> putItem(PutItemRequest.Builder b) {
        return call("PutItem", () -> dynamo.putItem(b.tableName(table).returnConsumedCapacity(rcc).build()),
                r -> List.of(nonNull(r.consumedCapacity())), true);
    }

    public Metered<UpdateItemResponse> updateItem(UpdateItemRequest.Builder b) {
        return call("UpdateItem", () -> dynamo.updateItem(b.tableName(table).returnConsumedCapacity(rcc).build()),
                r -> List.of(nonNull(r.consumedCapacity())), true);
    }

    public Metered<DeleteItemResponse> deleteItem(DeleteItemRequest.Builder b) {
        return call("DeleteItem", () -> dynamo.deleteItem(b.tableName(table).returnConsumedCapacity(rcc).build()),
                r -> List.of(nonNull(r.consumedCapacity())), true);
    }

    /** The items' builders must already name the table. */
    public Metered<TransactWriteItemsResponse> transactWriteItems(TransactWriteItemsRequest.Builder b) {
        return call("TransactWriteItems", () -> dynamo.transactWriteItems(b.returnConsumedCapacity(rcc).build()),
                r -> r.hasConsumedCapacity() ? r.consumedCapacity() : List.of(), true);
    }

    public Metered<QueryResponse> query(QueryRequest.Builder b) {
        return call("Query", () -> dynamo.query(b.tableName(table).returnConsumedCapacity(rcc).build()),
                r -> List.of(nonNull(r.consumedCapacity())), false);
    }

    private <R> Metered<R> call(String op, Supplier<R> request, Function<R, List<ConsumedCapacity>> consumed, boolean write) {
        R response;
        try {
            response = request.get();
        } catch (ConditionalCheckFailedException e) {
            meter.refused(op, table);
            throw e;
        } catch (ResourceNotFoundException e) {
            throw new MissingTableException(table, e);
        } catch (TransactionCanceledException e) {
            if (e.hasCancellationReasons()
                    && e.cancellationReasons().stream().anyMatch(r -> "ConditionalCheckFailed".equals(r.code()))) {
                meter.refused(op, table);
            }
            throw e;
        }
        Capacity capacity = Capacity.NONE;
        for (ConsumedCapacity c : consumed.apply(response)) {
            capacity = capacity.plus(capacity(c, write));
        }
        if (rcc != ReturnConsumedCapacity.NONE) {
            meter.consumed(op, table, capacity);
        }
        return new Metered<>(response, capacity);
    }

    private static Capacity capacity(ConsumedCapacity c, boolean write) {
        double total = c.capacityUnits() == null ? 0 : c.capacityUnits();
        double read = c.readCapacityUnits() != null ? c.readCapacityUnits() : write ? 0 : total;
        double written = c.writeCapacityUnits() != null ? c.writeCapacityUnits() : write ? total : 0;
        return new Capacity(read, written);
    }

    private static ConsumedCapacity nonNull(ConsumedCapacity c) {
        return c == null ? ConsumedCapacity.builder().build() : c;
    }
}
