package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.model.StreamName;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.function.ToDoubleFunction;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * What a store table holds, read straight from its items (whoever wrote them): each stream's version
 * (its Tip's {@code n}), the items, and two read floors of loading every event body once, eventually
 * consistent (0.5 RCU per started 4 KB): {@code bodyFloorReadUnits} every item read on its own (a
 * {@code GetItem} each, as DynamoDB Local charges it); {@code streamFloorReadUnits} every stream read
 * by one {@code Query} (a query rounds the sum of its items: lower when a stream has calves).
 *
 * @param versions per stream, the events stored
 */
public record StoreFacts(Map<StreamName, Long> versions, long events, long items, double bodyFloorReadUnits,
                         double streamFloorReadUnits) {

    private static final String TIP = "2147483647";

    /**
     * @param floors whether to read every item and every stream for the floors (else they are 0)
     * @throws IllegalStateException when a read fails
     */
    public static StoreFacts of(DynamoDbClient dynamo, String table, boolean floors) {
        Map<StreamName, Long> versions = new HashMap<>();
        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        dynamo.scanPaginator(b -> b.tableName(table).projectionExpression("p, i, n")).items().forEach(item -> {
            keys.add(Map.of("p", item.get("p"), "i", item.get("i")));
            if (TIP.equals(item.get("i").n()) && !item.get("p").s().startsWith("$")) {
                versions.put(StreamName.parse(item.get("p").s()), Long.parseLong(item.get("n").n()));
            }
        });
        long events = versions.values().stream().mapToLong(Long::longValue).sum();
        if (!floors) {
            return new StoreFacts(versions, events, keys.size(), 0, 0);
        }
        double byItem = inParallel(keys, key -> dynamo.getItem(b -> b.tableName(table).key(key).consistentRead(false)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity().capacityUnits());
        double byStream = inParallel(List.copyOf(versions.keySet()), s -> dynamo.queryPaginator(b -> b.tableName(table)
                        .keyConditionExpression("p = :p").expressionAttributeValues(Map.of(":p", AttributeValue.fromS(s.toString())))
                        .consistentRead(false).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).stream()
                .mapToDouble(r -> r.consumedCapacity().capacityUnits()).sum());
        return new StoreFacts(versions, events, keys.size(), byItem, byStream);
    }

    /** The sum of {@code read} over {@code xs}, 8 reads at a time. */
    private static <T> double inParallel(List<T> xs, ToDoubleFunction<T> read) {
        ForkJoinPool pool = new ForkJoinPool(8);
        try {
            return pool.submit(() -> xs.parallelStream().mapToDouble(read).sum()).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the store's items", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("reading the store's items failed: " + e.getCause().getMessage(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }
}
