package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.samples.demo.Agreement;
import io.appendsfeed.samples.demo.Agreement.Tally;
import io.appendsfeed.samples.demo.FeedTally;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * What a store table holds, read from its items whoever wrote them, and two floors of reading every body once,
 * eventually consistent: {@code bodyFloorReadUnits} a {@code GetItem} per item, {@code streamFloorReadUnits} a
 * {@code Query} per stream (rounded over the stream's items: lower when it has calves).
 *
 * @param versions per stream, the events stored (its Tip's {@code n})
 */
public record StoreFacts(Map<StreamName, Long> versions, long events, long items, double bodyFloorReadUnits,
                         double streamFloorReadUnits) {

    private static final String TIP = "2147483647";

    /** @param floors whether to read every item and every stream for the floors (else they are 0) */
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
            return pool.submit(() -> xs.parallelStream().mapToDouble(read).sum()).join(); // a failed read is rethrown
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Reads the index back ({@link FeedTally}: the format is the same whoever wrote it) and checks that per stream the
     * spans of partition 0's epochs cover exactly the events stored, each once, in order.
     *
     * @throws IllegalStateException when the index holds no epoch at all
     */
    public IndexCheck check(DynamoDbClient dynamo, String indexTable) {
        FeedTally feed = new FeedTally(new StoreClient(dynamo, StoreConfig.builder(indexTable).reservedStreams(true).build()), 1);
        feed.refresh();
        int epochs = 0;
        long floor = 0;
        for (long f; (f = floorWriteUnits(dynamo, indexTable, AppendsEpoch.stream(PartitionId.ZERO, EpochId.of(epochs)))) >= 0; epochs++) {
            floor += f;
        }
        if (epochs == 0) {
            throw new IllegalStateException("index " + indexTable + " holds no " + AppendsEpoch.stream(PartitionId.ZERO, EpochId.ZERO)
                    + ": nothing was indexed into it");
        }
        Agreement.Report r = Agreement.check(List.of(Tally.of("store", versions), feed.tally()), List.of());
        List<String> problems = Stream.concat(r.problems().stream(), r.mismatches().stream().map(m -> m.stream()
                + ": the store holds " + m.counts().get(0) + " events, the index covers " + m.counts().get(1))).limit(10).toList();
        return new IndexCheck(indexTable, epochs, feed.ingested(), feed.spans(), feed.events(), floor, problems);
    }

    /** 1 WCU per started KB of each {@code Ingested} body ({@code d}) of the epoch's items, read raw; -1 when it has none. */
    private static long floorWriteUnits(DynamoDbClient dynamo, String table, StreamName epoch) {
        long floor = -1;
        for (Map<String, AttributeValue> item : dynamo.queryPaginator(b -> b.tableName(table).keyConditionExpression("p = :p")
                .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(epoch.toString())))).items()) {
            floor = Math.max(floor, 0);
            List<AttributeValue> types = item.get("c").l();
            for (int k = 0; k < types.size(); k++) {
                if (EpochEvent.INGESTED.equals(types.get(k).s())) {
                    floor += (item.get("e").l().get(k).m().get("d").b().asByteArray().length + 1023) / 1024;
                }
            }
        }
        return floor;
    }

    /**
     * @param floorWriteUnits 1 WCU per started KB of each stored {@code Ingested} body: the least any write of it costs
     * @param problems the first few differences from the store; empty when the index is correct
     */
    public record IndexCheck(String indexTable, int epochs, long ingested, long spans, long events, long floorWriteUnits,
                             List<String> problems) {}
}
