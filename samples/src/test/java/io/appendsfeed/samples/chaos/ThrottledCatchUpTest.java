package io.appendsfeed.samples.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.poller.PollerConfig;
import io.appendsfeed.indexer.poller.StreamsPoller;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreTables;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.model.testing.faults.Fault;
import io.appendsfeed.model.testing.faults.FaultInjector;
import io.appendsfeed.model.testing.faults.FaultPlan;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The poller and the reader under sustained throttling (30% of every DynamoDB and DynamoDB Streams
 * call refused): they slow down, retry and drop nothing; when the throttling stops they catch up.
 * The catch-up time is printed, not asserted.
 */
@ExtendWith(LocalDynamoExtension.class)
class ThrottledCatchUpTest {

    static final Set<String> OPS = Set.of("GetRecords", "GetShardIterator", "DescribeStream", "Query", "GetItem", "PutItem",
            "UpdateItem", "TransactWriteItems", "BatchGetItem");

    static {
        QuietLogs.unlessAsked();
    }

    @Test
    void poller_and_reader_slow_down_under_throttling_drop_nothing_and_catch_up_when_it_stops(LocalDynamo local) {
        String storeTable = local.freshTableName("throttled-store");
        String indexTable = local.freshTableName("throttled-index");
        StoreTables.ensure(local.dynamo(), storeTable, StreamViewType.NEW_IMAGE);
        StoreTables.ensure(local.dynamo(), indexTable, null);
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).tipMaxBytes(512).build());
        Map<StreamName, List<String>> written = new LinkedHashMap<>();
        for (int round = 0; round < 6; round++) {
            for (int s = 0; s < 20; s++) {
                StreamName stream = StreamName.of("Account", Integer.toString(s));
                List<String> types = written.computeIfAbsent(stream, x -> new ArrayList<>());
                String type = "Changed" + types.size();
                store.append(stream, Expected.version(types.size()), List.of(EventData.json(type, "{\"round\":" + round + ",\"pad\":\"x\"}")));
                types.add(type);
            }
        }
        int total = written.values().stream().mapToInt(List::size).sum();

        FaultInjector throttling = new FaultInjector(FaultPlan.random(11, 0.3, List.of(Fault.throttle()), OPS));
        DynamoDbClient dynamo = throttling.wrap(local.dynamo());
        DynamoDbStreamsClient streams = throttling.wrap(local.streams());
        Indexer indexer = ChaosWriter.retry(() -> Indexer.start(dynamo, IndexerConfig.builder(indexTable).partitions(2).build()));
        Projection projection = new Projection(11, 0, true);
        FeedReaderConfig readerConfig = FeedReaderConfig.builder("throttled", indexTable, storeTable).leases(false)
                .pollInterval(Duration.ofMillis(20)).commitInterval(Duration.ofMillis(50)).maxBatchEvents(2)
                .retryBackoff(Duration.ofMillis(20), Duration.ofMillis(200)).parkAfterAttempts(1000)
                .parkedPollInterval(Duration.ofMillis(100)).build();
        PollerConfig pollerConfig = PollerConfig.of(storeTable).withRecordsPerRead(10).withIdleWait(Duration.ofMillis(20))
                .withRetryBackoff(Duration.ofMillis(100));
        long start = System.nanoTime();
        try (StreamsPoller poller = ChaosWriter.retry(() -> new StreamsPoller(dynamo, streams, indexer, pollerConfig)).start();
             FeedReader reader = new FeedReader(dynamo, readerConfig, projection)) {
            reader.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> projection.appliedEvents() >= total / 3);
            long throttled = throttling.count(Fault.Throttle.class);
            int appliedUnderThrottling = projection.appliedEvents();
            double underMs = (System.nanoTime() - start) / 1e6;
            throttling.replacePlan(FaultPlan.none());
            long healed = System.nanoTime();
            await().atMost(Duration.ofSeconds(30)).until(() -> projection.appliedEvents() == total);
            System.out.printf(java.util.Locale.ROOT, "throttling: %d calls throttled (%s); %d of %d events applied in %.0f ms under"
                            + " throttling, then caught up on the remaining %d in %.0f ms%n", throttled, throttling.summary(),
                    appliedUnderThrottling, total, underMs, total - appliedUnderThrottling, (System.nanoTime() - healed) / 1e6);
            assertThat(throttled).as("calls were throttled while it worked").isPositive();
            assertThat(poller.stoppedShards()).isEmpty();
        }
        assertThat(projection.violations).isEmpty();
        assertThat(projection.applied).isEqualTo(written);
        assertThat(projection.applications).allSatisfy((event, n) -> assertThat(n.get()).as(event).isEqualTo(1));
        FeedContents feed = new FeedContents(new StoreClient(local.dynamo(), StoreConfig.builder(indexTable).reservedStreams(true).build()), 2);
        assertThat(feed.problems).isEmpty();
        assertThat(feed.streams).isEqualTo(written);
    }
}
