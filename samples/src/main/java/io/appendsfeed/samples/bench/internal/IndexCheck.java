package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.feed.EpochEvent;
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
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Reads an index back, whoever wrote it (appendsfeed or equinox-js: the format is the same), and
 * checks it against the store: every partition's epochs in order, every {@code Ingested} span, and
 * per stream that the spans cover exactly the events stored, each once, in order. Also the write
 * floor of what was written: the {@code Ingested} bodies' bytes as stored, 1 WCU per started KB of
 * each (the least any write carrying it can cost).
 *
 * @param spans spans in all {@code Ingested} events (the records that carried events, after any merging)
 * @param ingested {@code Ingested} events written
 * @param storedBytes their bodies' bytes as stored (after compression)
 * @param floorWriteUnits 1 WCU per started KB of each stored body
 * @param problems the first few differences from the store; empty when the index is correct
 */
public record IndexCheck(String indexTable, int partitions, int epochs, long ingested, long spans, long events, int streams,
                         long storedBytes, long floorWriteUnits, List<String> problems) {

    private static final int MAX_PROBLEMS = 10;

    public IndexCheck {
        problems = List.copyOf(problems);
    }

    public boolean correct() {
        return problems.isEmpty();
    }

    /**
     * @param expected per stream, the version its Tip holds in the store (events stored)
     * @throws IllegalStateException when the index holds no epoch at all (nothing indexed, or another naming)
     */
    public static IndexCheck of(DynamoDbClient dynamo, String indexTable, Map<String, Long> expected) {
        StoreClient index = new StoreClient(dynamo, StoreConfig.builder(indexTable).reservedStreams(true).build());
        Map<String, Long> next = new HashMap<>();
        List<String> problems = new ArrayList<>();
        int partitions = 0;
        int epochs = 0;
        long ingested = 0;
        long spans = 0;
        long events = 0;
        long[] bytes = {0, 0};
        while (true) {
            PartitionId p = new PartitionId(partitions);
            int e = 0;
            while (true) {
                StreamName epoch = AppendsEpoch.stream(p, new EpochId(e));
                List<StoredEvent> stored = index.readAll(epoch, Read.forward(0));
                if (stored.isEmpty()) {
                    break;
                }
                storedBytes(dynamo, indexTable, epoch.toString(), bytes);
                for (StoredEvent x : stored) {
                    if (AppendsEpoch.decode(x) instanceof EpochEvent.Ingested i) {
                        ingested++;
                        for (List<Span> list : List.of(i.add(), i.app())) {
                            for (Span s : list) {
                                spans++;
                                events += s.count();
                                follow(next, s, epoch, problems);
                            }
                        }
                    }
                }
                e++;
            }
            if (e == 0) {
                break;
            }
            epochs += e;
            partitions++;
        }
        if (partitions == 0) {
            throw new IllegalStateException("index " + indexTable + " holds no " + AppendsEpoch.stream(PartitionId.ZERO, EpochId.ZERO)
                    + ": nothing was indexed into it");
        }
        expected.forEach((stream, n) -> {
            long got = next.getOrDefault(stream, 0L);
            if (got != n && problems.size() < MAX_PROBLEMS) {
                problems.add(stream + ": the index covers events 0.." + (got - 1) + ", the store holds 0.." + (n - 1));
            }
        });
        next.keySet().stream().filter(s -> !expected.containsKey(s)).limit(MAX_PROBLEMS - problems.size())
                .forEach(s -> problems.add(s + ": in the index, not in the store"));
        return new IndexCheck(indexTable, partitions, epochs, ingested, spans, events, next.size(), bytes[0], bytes[1], problems);
    }

    /** Each stream's spans must continue exactly where the last one ended. */
    private static void follow(Map<String, Long> next, Span s, StreamName epoch, List<String> problems) {
        String stream = s.stream().toString();
        long want = next.getOrDefault(stream, 0L);
        if (s.index() != want && problems.size() < MAX_PROBLEMS) {
            problems.add(stream + ": in " + epoch + " a span starts at " + s.index() + " where " + want + " was next"
                    + (s.index() < want ? " (events twice)" : " (a gap)"));
        }
        next.put(stream, Math.max(want, s.nextIndex()));
    }

    /** Adds the stored bytes of the epoch's {@code Ingested} bodies ({@code d}) and their 1-KB floor to {@code acc}. */
    private static void storedBytes(DynamoDbClient dynamo, String table, String stream, long[] acc) {
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse r = dynamo.query(b -> b.tableName(table).keyConditionExpression("p = :p")
                    .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(stream))).exclusiveStartKey(from));
            for (Map<String, AttributeValue> item : r.items()) {
                List<AttributeValue> types = item.get("c").l();
                List<AttributeValue> es = item.get("e").l();
                for (int k = 0; k < types.size(); k++) {
                    if (EpochEvent.INGESTED.equals(types.get(k).s())) {
                        long n = es.get(k).m().get("d").b().asByteArray().length;
                        acc[0] += n;
                        acc[1] += (n + 1023) / 1024;
                    }
                }
            }
            start = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty() ? r.lastEvaluatedKey() : null;
        } while (start != null);
    }
}
