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
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An index read back ({@link FeedTally}: whoever wrote it, the format is the same) and checked against the
 * store: per stream, the spans of the epochs, in order, cover exactly the events stored, each once. Also
 * the write floor of what was written: 1 WCU per started KB of each stored {@code Ingested} body, the least
 * any write carrying it can cost. Every writer here indexes into partition 0.
 *
 * @param spans spans in all {@code Ingested} events
 * @param problems the first few differences from the store; empty when the index is correct
 */
public record IndexCheck(String indexTable, int epochs, long ingested, long spans, long events, long floorWriteUnits,
                         List<String> problems) {

    /**
     * @param stored per stream, the events the store holds
     * @throws IllegalStateException when the index holds no epoch at all (nothing indexed, or another naming)
     */
    public static IndexCheck of(DynamoDbClient dynamo, String indexTable, Map<StreamName, Long> stored) {
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
        Agreement.Report r = Agreement.check(List.of(Tally.of("store", stored), feed.tally()), List.of());
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
}
