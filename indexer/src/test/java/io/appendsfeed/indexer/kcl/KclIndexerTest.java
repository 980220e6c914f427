package io.appendsfeed.indexer.kcl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.indexer.FeedReadback;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * KCL 3 and the DynamoDB Streams Kinesis adapter against DynamoDB Local. Slow to start (16–35 s to
 * the first record, see shared/LOCAL-DYNAMODB.md), so one test covers the run and the restart.
 */
@ExtendWith(LocalDynamoExtension.class)
class KclIndexerTest {

    private static final Logger log = LoggerFactory.getLogger(KclIndexerTest.class);
    private static final Duration KCL_START = Duration.ofSeconds(120);

    @Test
    void appends_are_indexed_once_in_order_and_a_restarted_worker_resumes_from_the_lease_checkpoint(LocalDynamo local) {
        String storeTable = IndexerTables.store(local);
        String indexTable = IndexerTables.index(local);
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).build());
        Map<StreamName, List<String>> expected = append(store, new LinkedHashMap<>(), 3, 4);
        String arn = RegionMappingStreams.shown(KclIndexer.streamArn(local.dynamo(), storeTable));
        String app = local.freshTableName("kcl-app");
        FeedReadback feed = new FeedReadback(local.dynamo(), indexTable, 2);

        try (KclClients base = KclClients.of(local.settings())) {
            KclClients clients = base.withStreams(RegionMappingStreams.wrap(base.streams()));
            long first;
            try (KclIndexer worker = KclIndexer.start(clients, indexer(local, indexTable), config(app, arn, "worker-1"))) {
                long started = System.nanoTime();
                await().atMost(KCL_START).until(() -> worker.recordsIngested() > 0);
                first = System.nanoTime();
                log.info("KCL: first record ingested {} ms after start", (first - started) / 1_000_000);
                await().atMost(KCL_START).untilAsserted(() -> feed.assertExactly(expected));
                // latency of single appends once the worker runs
                long before = System.nanoTime();
                int n = 5;
                for (int k = 0; k < n; k++) {
                    long ingested = worker.recordsIngested();
                    append(store, expected, 1, 1);
                    await().atMost(KCL_START).until(() -> worker.recordsIngested() > ingested);
                }
                log.info("KCL: {} ms per record from append to durably indexed, one at a time",
                        (System.nanoTime() - before) / 1_000_000 / n);
                feed.assertExactly(expected);
            }

            append(store, expected, 4, 2);
            // a new worker of the same application: starts from the checkpoints the first one left
            try (KclIndexer restarted = KclIndexer.start(clients, indexer(local, indexTable), config(app, arn, "worker-2"))) {
                await().atMost(KCL_START).untilAsserted(() -> feed.assertExactly(expected));
                assertThat(restarted.recordsIngested()).as("records the restarted worker read: only the 8 appends made since (one Tip write each)")
                        .isEqualTo(8);
            }
        }
    }

    private static Indexer indexer(LocalDynamo local, String indexTable) {
        return Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable).partitions(2).build());
    }

    private static KclConfig config(String app, String arn, String worker) {
        return KclConfig.builder(app, arn).workerId(worker)
                .idleTimeBetweenReads(Duration.ofMillis(200))
                .failoverTime(Duration.ofSeconds(2))
                .shardSyncInterval(Duration.ZERO)
                .build();
    }

    static Map<StreamName, List<String>> append(StoreClient store, Map<StreamName, List<String>> expected, int streams, int events) {
        for (int s = 0; s < streams; s++) {
            StreamName name = StreamName.parse("Account-" + s);
            List<String> types = expected.computeIfAbsent(name, x -> new ArrayList<>());
            for (int e = 0; e < events; e++) {
                String type = "E" + types.size();
                store.append(name, Expected.version(types.size()), List.of(EventData.json(type, "{}")));
                types.add(type);
            }
        }
        return expected;
    }
}
