package io.appendsfeed.samples.bench.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.ToDoubleFunction;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * What a store table holds, read straight from its items (whoever wrote them): each stream's
 * version (its Tip's {@code n}), the items (Tips and calves), and two read floors of loading every
 * event body once, eventually consistent, which DynamoDB charges 0.5 RCU per started 4 KB:
 * <ul>
 * <li>{@code bodyFloorReadUnits}: every item read on its own, 4 KB rounding per item: what DynamoDB
 *     Local charges for a {@code GetItem} of each item, summed (so its own size rules apply);</li>
 * <li>{@code streamFloorReadUnits}: every stream read in one {@code Query}, 4 KB rounding per
 *     stream (a query rounds the sum of the items it returns): lower when a stream has calves.</li>
 * </ul>
 *
 * @param versions per stream, the events stored (the Tip's {@code n})
 */
public record StoreFacts(String table, Map<String, Long> versions, long events, long items, long tips,
                         double bodyFloorReadUnits, double streamFloorReadUnits) {

    private static final String TIP = "2147483647";
    private static final int THREADS = 8;

    public StoreFacts {
        versions = Map.copyOf(versions);
    }

    /**
     * @param floor whether to read every item and every stream for the floors (else they are 0)
     * @throws IllegalStateException when a read fails
     */
    public static StoreFacts of(DynamoDbClient dynamo, String table, boolean floor) {
        Map<String, Long> versions = new HashMap<>();
        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            ScanResponse r = dynamo.scan(b -> b.tableName(table).projectionExpression("p, i, n").exclusiveStartKey(from));
            for (Map<String, AttributeValue> item : r.items()) {
                keys.add(Map.of("p", item.get("p"), "i", item.get("i")));
                if (TIP.equals(item.get("i").n()) && !item.get("p").s().startsWith("$")) {
                    versions.put(item.get("p").s(), Long.parseLong(item.get("n").n()));
                }
            }
            start = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty() ? r.lastEvaluatedKey() : null;
        } while (start != null);
        long events = versions.values().stream().mapToLong(Long::longValue).sum();
        List<Map<String, AttributeValue>> streams = versions.keySet().stream()
                .map(p -> Map.of(":p", AttributeValue.fromS(p))).toList();
        return new StoreFacts(table, versions, events, keys.size(), versions.size(),
                floor ? inParallel(keys, key -> dynamo.getItem(b -> b.tableName(table).key(key).consistentRead(false)
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity().capacityUnits()) : 0,
                floor ? inParallel(streams, values -> queryAll(dynamo, table, values)) : 0);
    }

    private static double queryAll(DynamoDbClient dynamo, String table, Map<String, AttributeValue> values) {
        double units = 0;
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse r = dynamo.query(b -> b.tableName(table).keyConditionExpression("p = :p").expressionAttributeValues(values)
                    .consistentRead(false).exclusiveStartKey(from).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
            units += r.consumedCapacity().capacityUnits();
            start = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty() ? r.lastEvaluatedKey() : null;
        } while (start != null);
        return units;
    }

    /** The sum of {@code read} over {@code xs}, in {@value #THREADS} threads. */
    private static <T> double inParallel(List<T> xs, ToDoubleFunction<T> read) {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<Double>> parts = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int from = t;
                parts.add(pool.submit(() -> {
                    double units = 0;
                    for (int k = from; k < xs.size(); k += THREADS) {
                        units += read.applyAsDouble(xs.get(k));
                    }
                    return units;
                }));
            }
            double sum = 0;
            for (Future<Double> f : parts) {
                sum += f.get();
            }
            return sum;
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
