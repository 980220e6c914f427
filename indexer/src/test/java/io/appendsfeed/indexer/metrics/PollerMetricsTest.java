package io.appendsfeed.indexer.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.StreamRecords;
import io.appendsfeed.indexer.poller.PollerConfig;
import io.appendsfeed.indexer.poller.StreamsPoller;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.metrics.MicrometerMetrics;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalDynamoExtension.class)
class PollerMetricsTest {

    @Test
    void the_poller_reports_each_batch_under_its_shard(LocalDynamo local) {
        String storeTable = IndexerTables.store(local);
        String indexTable = IndexerTables.index(local);
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).build());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable).metrics(new MicrometerMetrics(registry)).build());
        for (int k = 0; k < 6; k++) {
            store.append(StreamName.parse("Cart-" + (k % 3)), Expected.version(k / 3), List.of(EventData.json("Added", "{}")));
        }
        String shard = local.streams().describeStream(b -> b.streamArn(
                local.dynamo().describeTable(t -> t.tableName(storeTable)).table().latestStreamArn()))
                .streamDescription().shards().get(0).shardId();
        int written = StreamRecords.all(local.dynamo(), local.streams(), storeTable).size();
        try (StreamsPoller poller = new StreamsPoller(local.dynamo(), local.streams(), indexer, PollerConfig.of(storeTable))) {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                poller.pollOnce();
                assertThat(registry.find("appendsfeed.indexer.events.accepted").tag("shard", shard).counter())
                        .isNotNull().satisfies(c -> assertThat(c.count()).isEqualTo(6));
            });
        }
        assertThat(registry.get("appendsfeed.indexer.records").tag("shard", shard).tag("feed", indexTable).counter().count())
                .isEqualTo(written);
        assertThat(registry.get("appendsfeed.indexer.batch.time").tag("shard", shard).timer().count()).isPositive();
    }
}
