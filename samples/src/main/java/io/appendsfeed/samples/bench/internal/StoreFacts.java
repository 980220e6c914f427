package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.samples.demo.Agreement;
import io.appendsfeed.samples.demo.Agreement.Tally;
import io.appendsfeed.samples.demo.FeedTally;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What a store table holds, read from its items whoever wrote them.
 *
 * @param versions per stream, the events stored (its Tip's {@code n})
 */
public record StoreFacts(Map<StreamName, Long> versions, long events, long items) {

    private static final String TIP = "2147483647";

    public static StoreFacts of(DynamoDbClient dynamo, String table) {
        Map<StreamName, Long> versions = new HashMap<>();
        long[] items = {0};
        dynamo.scanPaginator(b -> b.tableName(table).projectionExpression("p, i, n")).items().forEach(item -> {
            items[0]++;
            if (TIP.equals(item.get("i").n()) && !item.get("p").s().startsWith("$")) {
                versions.put(StreamName.parse(item.get("p").s()), Long.parseLong(item.get("n").n()));
            }
        });
        return new StoreFacts(versions, versions.values().stream().mapToLong(Long::longValue).sum(), items[0]);
    }

    /**
     * Reads the index back ({@link FeedTally}: the format is the same whoever wrote it) and checks that per stream the
     * spans of partition 0's epochs cover exactly the events stored, each once, in order.
     */
    public IndexCheck check(DynamoDbClient dynamo, String indexTable) {
        FeedTally feed = new FeedTally(new StoreClient(dynamo, StoreConfig.builder(indexTable).reservedStreams(true).build()), 1);
        feed.refresh();
        return new IndexCheck(indexTable, feed.spans(), feed.events(), differences(feed.tally()));
    }

    /** The first few differences between {@code seen} and the store; empty when it holds every event once, in order. */
    public List<String> differences(Tally seen) {
        return Agreement.check(List.of(Tally.of("store", versions), seen), List.of()).problems().stream().limit(10).toList();
    }

    /** @param problems the first few differences from the store; empty when the index is correct */
    public record IndexCheck(String indexTable, long spans, long events, List<String> problems) {}
}
