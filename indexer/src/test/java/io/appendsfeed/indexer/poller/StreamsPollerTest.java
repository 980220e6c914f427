package io.appendsfeed.indexer.poller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.indexer.FeedReadback;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.indexer.internal.RejectedLog;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
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
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

@ExtendWith(LocalDynamoExtension.class)
class StreamsPollerTest {

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

    @Test
    void an_index_written_by_a_newer_format_stops_the_shard_instead_of_retrying_forever(LocalDynamo local) {
        String storeTable = IndexerTables.store(local);
        String indexTable = IndexerTables.index(local);
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).build());
        StoreClient index = new StoreClient(local.dynamo(), StoreConfig.builder(indexTable).reservedStreams(true).build());
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable).build());
        FeedReadback feed = new FeedReadback(local.dynamo(), indexTable, 1);
        PollerConfig cfg = PollerConfig.of(storeTable).withRetryBackoff(Duration.ofMillis(10));
        try (StreamsPoller poller = new StreamsPoller(local.dynamo(), local.streams(), indexer, cfg)) {
            Map<StreamName, List<String>> expected = append(store, new LinkedHashMap<>(), 1, 1);
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                poller.pollOnce();
                feed.assertExactly(expected);
            });
            StreamName epoch = StreamName.parse("$AppendsEpoch-0_0");
            long version = index.readTip(epoch, true).orElseThrow().version();
            index.appendAsCalf(epoch, version, List.of(EventData.json("Compacted", "{}"))); // as a newer indexer writes it
            index.ensureTip(epoch, version + 1);
            append(store, expected, 1, 1);

            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                poller.pollOnce();
                assertThat(poller.stoppedShards()).hasSize(1);
            });
            assertThat(poller.stoppedShards().values()).singleElement()
                    .satisfies(e -> assertThat(e).hasMessageContaining("Compacted").hasMessageContaining("upgrade"));
            assertThat(index.readTip(epoch, true).orElseThrow().version()).as("nothing written past it").isEqualTo(version + 1);
        }
    }

    @Test
    void a_poller_that_read_an_empty_shard_still_indexes_the_first_write(LocalDynamo local) {
        String storeTable = IndexerTables.store(local);
        String indexTable = IndexerTables.index(local);
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).build());
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable).build());
        FeedReadback feed = new FeedReadback(local.dynamo(), indexTable, 1);
        try (StreamsPoller poller = new StreamsPoller(local.dynamo(), local.streams(), indexer, PollerConfig.of(storeTable))) {
            assertThat(poller.pollOnce()).as("nothing written yet").isZero();
            Map<StreamName, List<String>> expected = append(store, new LinkedHashMap<>(), 1, 2);
            // the iterator kept from the empty read is trimmed on DynamoDB Local once records arrive
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                poller.pollOnce();
                assertThat(poller.stoppedShards()).isEmpty();
                feed.assertExactly(expected);
            });
        }
    }

    @Test
    void appends_flow_through_streams_and_the_poller_into_the_feed_and_a_restart_resumes(LocalDynamo local) {
        String storeTable = IndexerTables.store(local);
        String indexTable = IndexerTables.index(local);
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).tipMaxBytes(300).build());
        Map<StreamName, List<String>> expected = append(store, new LinkedHashMap<>(), 3, 4);
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable).partitions(2).build());
        FeedReadback feed = new FeedReadback(local.dynamo(), indexTable, 2);
        PollerConfig cfg = PollerConfig.of(storeTable).withIdleWait(Duration.ofMillis(20));
        try (StreamsPoller poller = new StreamsPoller(local.dynamo(), local.streams(), indexer, cfg).start()) {
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> feed.assertExactly(expected));
        }
        append(store, expected, 4, 2);
        // a new poller (a restart): resumes from its stored positions, so it only reads what is new
        Indexer restarted = Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable).partitions(2).build());
        try (StreamsPoller poller = new StreamsPoller(local.dynamo(), local.streams(), restarted, cfg)) {
            int read = 0;
            for (int k = 0; k < 5; k++) {
                read += poller.pollOnce();
            }
            assertThat(read).as("records read after the restart: only the 8 new appends").isEqualTo(8);
        }
        feed.assertExactly(expected);
    }

    @Test
    void every_page_moves_the_epoch_tip_to_its_calves_end(LocalDynamo local) {
        String storeTable = IndexerTables.store(local);
        String indexTable = IndexerTables.index(local);
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).build());
        Map<StreamName, List<String>> expected = append(store, new LinkedHashMap<>(), 5, 2); // 10 records
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable).build());
        StoreClient index = new StoreClient(local.dynamo(), StoreConfig.builder(indexTable).reservedStreams(true).build());
        io.appendsfeed.model.StreamName epoch = io.appendsfeed.model.feed.FeedStreams.epoch(
                io.appendsfeed.model.feed.PartitionId.of(0), io.appendsfeed.model.feed.EpochId.ZERO);
        try (StreamsPoller poller = new StreamsPoller(local.dynamo(), local.streams(), indexer,
                PollerConfig.of(storeTable).withRecordsPerRead(4))) {
            assertThat(poller.pollOnce()).isEqualTo(4);
            assertThat(poller.pollOnce()).isEqualTo(4);
            assertThat(index.readTip(epoch, true).orElseThrow().version()).as("two full pages, two writes: the Tip follows")
                    .isEqualTo(2);
            assertThat(poller.pollOnce()).as("the last 2").isEqualTo(2);
            assertThat(index.readTip(epoch, true).orElseThrow().version()).isEqualTo(3);
            feedOf(local, indexTable).assertExactly(expected);
        }
    }

    private static FeedReadback feedOf(LocalDynamo local, String indexTable) {
        return new FeedReadback(local.dynamo(), indexTable, 1);
    }

    @Test
    void shard_rollover_is_followed_parent_first(LocalDynamo local) {
        // one record per read: a poller that read a child before its parent was drained would put
        // later events first, which the feed check (and the indexer's gap check) catches
        DynamoDbClient dynamo = local.embedded().dynamoDbClient();
        DynamoDbStreamsClient streams = local.embedded().dynamoDbStreamsClient();
        String storeTable = local.freshTableName("store");
        String indexTable = local.freshTableName("index");
        StoreTables.ensure(dynamo, storeTable, StreamViewType.NEW_IMAGE);
        StoreTables.ensure(dynamo, indexTable, null);
        StoreClient store = new StoreClient(dynamo, StoreConfig.builder(storeTable).build());
        Map<StreamName, List<String>> expected = append(store, new LinkedHashMap<>(), 2, 3);
        local.embedded().triggerShardRollovers();
        append(store, expected, 2, 3);
        local.embedded().triggerShardRollovers();
        append(store, expected, 3, 1);
        Indexer indexer = Indexer.start(dynamo, IndexerConfig.builder(indexTable).build());
        try (StreamsPoller poller = new StreamsPoller(dynamo, streams, indexer,
                PollerConfig.of(storeTable).withRecordsPerRead(1))) {
            FeedReadback feed = new FeedReadback(dynamo, indexTable, 1);
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                poller.pollOnce();
                feed.assertExactly(expected);
            });
            assertThat(poller.stoppedShards()).isEmpty();
        }
    }

    @Test
    void rejected_record_stops_its_shard_or_is_recorded_and_skipped_as_configured(LocalDynamo local) {
        String storeTable = IndexerTables.store(local);
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).build());
        store.append(StreamName.parse("Account-1"), Expected.noStream(), List.of(EventData.json("Opened", "{}")));
        // a Tip that is not of the store format: a = 3 but c holds one type
        local.dynamo().putItem(b -> b.tableName(storeTable).item(Map.of("p", AttributeValue.fromS("Broken-1"),
                "i", AttributeValue.fromN("2147483647"), "n", AttributeValue.fromN("3"), "a", AttributeValue.fromN("3"),
                "c", AttributeValue.fromL(List.of(AttributeValue.fromS("X"))))));
        store.append(StreamName.parse("Account-2"), Expected.noStream(), List.of(EventData.json("Opened", "{}")));

        String stopIndex = IndexerTables.index(local);
        Indexer stopping = Indexer.start(local.dynamo(), IndexerConfig.builder(stopIndex).build());
        try (StreamsPoller poller = new StreamsPoller(local.dynamo(), local.streams(), stopping, PollerConfig.of(storeTable))) {
            for (int k = 0; k < 3; k++) poller.pollOnce();
            assertThat(poller.stoppedShards().values()).singleElement().satisfies(e -> assertThat(e.getMessage())
                    .contains("p=Broken-1").contains("a is 3 but c holds only 1"));
        }
        new FeedReadback(local.dynamo(), stopIndex, 1).assertExactly(Map.of(StreamName.parse("Account-1"), List.of("Opened")));

        String recordIndex = IndexerTables.index(local);
        Indexer recording = Indexer.start(local.dynamo(), IndexerConfig.builder(recordIndex).build());
        PollerConfig cfg = PollerConfig.of(storeTable).withOnRejected(PollerConfig.OnRejected.RECORD_AND_CONTINUE);
        try (StreamsPoller poller = new StreamsPoller(local.dynamo(), local.streams(), recording, cfg)) {
            for (int k = 0; k < 3; k++) poller.pollOnce();
            assertThat(poller.stoppedShards()).isEmpty();
        }
        new FeedReadback(local.dynamo(), recordIndex, 1).assertExactly(Map.of(
                StreamName.parse("Account-1"), List.of("Opened"), StreamName.parse("Account-2"), List.of("Opened")));
        StoreClient index = new StoreClient(local.dynamo(), StoreConfig.builder(recordIndex).reservedStreams(true).build());
        assertThat(index.readAll(RejectedLog.STREAM, Read.forward(0))).singleElement()
                .satisfies(e -> assertThat(e.dataText()).contains("Broken-1").contains("a is 3 but c holds only 1"));
    }
}
