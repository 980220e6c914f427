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
import io.appendsfeed.model.store.StoreTables;
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
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * KCL 3 and the DynamoDB Streams Kinesis adapter against DynamoDB Local. Slow to start (16–35 s to
 * the first record on DynamoDB Local, measured: see the indexer README, "KCL worker"), so one test covers
 * the run and the restart.
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
            KclClients clients = new KclClients(base.dynamo(), base.leases(), RegionMappingStreams.wrap(base.streams()),
                    base.region());
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
            KclIndexer restarted = KclIndexer.start(clients, indexer(local, indexTable), config(app, arn, "worker-2"));
            try (restarted) {
                await().atMost(KCL_START).untilAsserted(() -> feed.assertExactly(expected));
            }
            // counted once closed: a batch is in the feed just before the worker counts it
            assertThat(restarted.recordsIngested()).as("records the restarted worker read: only the 8 appends made since (one Tip write each)")
                    .isEqualTo(8);
        }
    }

    @Test
    void after_shard_rollovers_parents_are_indexed_before_children(LocalDynamo local) {
        // only the embedded instance can roll shards over; KCL's lease tables stay on the HTTP one
        DynamoDbClient dynamo = local.embedded().dynamoDbClient();
        String storeTable = local.freshTableName("store");
        String indexTable = local.freshTableName("index");
        StoreTables.ensure(dynamo, storeTable, StreamViewType.NEW_IMAGE);
        StoreTables.ensure(dynamo, indexTable, null);
        StoreClient store = new StoreClient(dynamo, StoreConfig.builder(storeTable).build());
        Map<StreamName, List<String>> expected = append(store, new LinkedHashMap<>(), 2, 2);
        local.embedded().triggerShardRollovers();
        append(store, expected, 2, 2);
        local.embedded().triggerShardRollovers();
        append(store, expected, 3, 1);
        String arn = RegionMappingStreams.shown(KclIndexer.streamArn(dynamo, storeTable));
        FeedReadback feed = new FeedReadback(dynamo, indexTable, 1);
        try (KclClients http = KclClients.of(local.settings())) {
            KclClients clients = new KclClients(dynamo, http.leases(),
                    RegionMappingStreams.wrap(local.embedded().dynamoDbStreamsClient()), http.region());
            Indexer indexer = Indexer.start(dynamo, IndexerConfig.builder(indexTable).build());
            // a child read before its parent would put a stream's later events first: the indexer refuses
            // that as a gap and the feed never matches
            try (KclIndexer worker = KclIndexer.start(clients, indexer, config(local.freshTableName("kcl-app"), arn, "worker-1"))) {
                await().atMost(KCL_START).untilAsserted(() -> feed.assertExactly(expected));
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
                .shutdownTimeout(Duration.ofSeconds(5))
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
