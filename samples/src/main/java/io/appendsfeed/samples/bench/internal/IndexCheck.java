package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoredEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Reads an index back, whoever wrote it (appendsfeed or equinox-js: the format is the same), and
 * checks it against the store: per stream, the spans of every partition's epochs, in order, cover
 * exactly the events stored, each once. Also the write floor of what was written: 1 WCU per started
 * KB of each stored {@code Ingested} body, the least any write carrying it can cost.
 *
 * @param spans spans in all {@code Ingested} events
 * @param floorWriteUnits 1 WCU per started KB of each {@code Ingested} body as stored (after compression)
 * @param problems the first few differences from the store; empty when the index is correct
 */
public record IndexCheck(String indexTable, int epochs, long ingested, long spans, long events, long floorWriteUnits,
                         List<String> problems) {

    private static final int MAX_PROBLEMS = 10;

    /**
     * @param expected per stream, the events the store holds
     * @throws IllegalStateException when the index holds no epoch at all (nothing indexed, or another naming)
     */
    public static IndexCheck of(DynamoDbClient dynamo, String indexTable, Map<String, Long> expected) {
        StoreClient index = new StoreClient(dynamo, StoreConfig.builder(indexTable).reservedStreams(true).build());
        Map<String, Long> next = new HashMap<>();
        List<String> problems = new ArrayList<>();
        int epochs = 0;
        long ingested = 0;
        long spans = 0;
        long events = 0;
        long floor = 0;
        for (int p = 0, e = 0; ; e++) {
            StreamName epoch = AppendsEpoch.stream(new PartitionId(p), new EpochId(e));
            List<StoredEvent> stored = index.readAll(epoch, Read.forward(0));
            if (stored.isEmpty()) {
                if (e == 0) {
                    break; // no partition p
                }
                p++;
                e = -1;
                continue;
            }
            epochs++;
            floor += floorWriteUnits(dynamo, indexTable, epoch.toString());
            for (StoredEvent x : stored) {
                if (AppendsEpoch.decode(x) instanceof EpochEvent.Ingested i) {
                    ingested++;
                    for (Span s : concat(i.add(), i.app())) {
                        spans++;
                        events += s.count();
                        String stream = s.stream().toString();
                        long want = next.getOrDefault(stream, 0L);
                        if (s.index() != want && problems.size() < MAX_PROBLEMS) {
                            problems.add(stream + ": in " + epoch + " a span starts at " + s.index() + " where " + want + " was next"
                                    + (s.index() < want ? " (events twice)" : " (a gap)"));
                        }
                        next.put(stream, Math.max(want, s.nextIndex()));
                    }
                }
            }
        }
        if (epochs == 0) {
            throw new IllegalStateException("index " + indexTable + " holds no " + AppendsEpoch.stream(PartitionId.ZERO, EpochId.ZERO)
                    + ": nothing was indexed into it");
        }
        expected.forEach((stream, n) -> {
            long got = next.getOrDefault(stream, 0L);
            if (got != n && problems.size() < MAX_PROBLEMS) {
                problems.add(stream + ": the index covers events 0.." + (got - 1) + ", the store holds 0.." + (n - 1));
            }
        });
        next.keySet().stream().filter(s -> !expected.containsKey(s)).limit(Math.max(0, MAX_PROBLEMS - problems.size()))
                .forEach(s -> problems.add(s + ": in the index, not in the store"));
        return new IndexCheck(indexTable, epochs, ingested, spans, events, floor, List.copyOf(problems));
    }

    private static List<Span> concat(List<Span> a, List<Span> b) {
        List<Span> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** 1 WCU per started KB of each {@code Ingested} body ({@code d}) of the epoch's items, read raw. */
    private static long floorWriteUnits(DynamoDbClient dynamo, String table, String stream) {
        long floor = 0;
        for (Map<String, AttributeValue> item : dynamo.queryPaginator(b -> b.tableName(table).keyConditionExpression("p = :p")
                .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(stream)))).items()) {
            List<AttributeValue> types = item.get("c").l();
            for (int k = 0; k < types.size(); k++) {
                if (EpochEvent.INGESTED.equals(types.get(k).s())) {
                    floor += (item.get("e").l().get(k).m().get("d").b().asByteArray().length + 1023) / 1024;
                }
            }
        }
        return floor;
    }
}
