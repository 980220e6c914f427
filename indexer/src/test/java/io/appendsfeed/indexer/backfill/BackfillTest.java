package io.appendsfeed.indexer.backfill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.model.feed.AppendsEpoch.EpochLimits;
import io.appendsfeed.indexer.FeedReadback;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.poller.PollerConfig;
import io.appendsfeed.indexer.poller.StreamsPoller;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreTables;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

@ExtendWith(LocalDynamoExtension.class)
class BackfillTest {

    private static final Logger log = LoggerFactory.getLogger(BackfillTest.class);
    /** Small epochs, so that a re-run must recognise events in closed epochs too. */
    private static final EpochLimits SMALL_EPOCHS = new EpochLimits(2, EpochLimits.DEFAULT_MAX_BYTES, 1000);

    @Test
    void a_table_written_with_streams_off_is_indexed_whole_in_order_and_a_rerun_adds_nothing(LocalDynamo local) {
        String storeTable = local.freshTableName("store");
        StoreTables.ensure(local.dynamo(), storeTable, null); // Streams off: only a backfill can index it
        String indexTable = IndexerTables.index(local);
        // small Tips: most streams are calved several times, so a stream is many items
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).tipMaxBytes(300).reservedStreams(true).build());
        List<StreamName> streams = new ArrayList<>();
        for (int s = 0; s < 12; s++) {
            StreamName name = StreamName.parse("Account-" + s);
            streams.add(name);
            for (int e = 0; e < s + 1; e++) { // 1..12 appends of 1..3 events
                store.append(name, Expected.any(), events(e % 3 + 1));
            }
        }
        store.append(StreamName.parse("$Internal-0"), Expected.any(), events(2));
        local.dynamo().putItem(b -> b.tableName(storeTable).item(Map.of("p", AttributeValue.fromS("Foreign-1"),
                "i", AttributeValue.fromN("2147483647"), "n", AttributeValue.fromN("3"))));
        Map<StreamName, List<String>> stored = stored(store, streams);
        long events = stored.values().stream().mapToLong(List::size).sum();
        IndexerConfig indexer = IndexerConfig.builder(indexTable).partitions(2).limits(SMALL_EPOCHS).build();
        BackfillConfig config = BackfillConfig.of(storeTable).withSegments(3).withPageSize(7).withSpansPerBatch(2);

        // the first run's epochs close two days ago, past any live indexer's look-back: the re-run must still see them
        BackfillResult first = new Backfill(local.dynamo(),
                indexer.toBuilder().clock(Clock.offset(Clock.systemUTC(), Duration.ofHours(-48))).build(), config).run();

        log.info("backfill: {} items in {} ms, {} items/s", first.itemsScanned(), first.elapsed().toMillis(), (long) first.itemsPerSecond());
        FeedReadback feed = new FeedReadback(local.dynamo(), indexTable, 2);
        feed.assertExactly(stored);
        assertThat(feed.epochs()).as("epochs: a re-run must look through closed ones").hasSizeGreaterThan(4);
        assertThat(first.eventsIngested()).isEqualTo(events);
        assertThat(first.duplicatesDropped()).isZero();
        assertThat(first.streams()).isEqualTo(streams.size());
        assertThat(first.reservedItemsSkipped()).isEqualTo(1);
        assertThat(first.rejected()).containsOnlyKeys("p=Foreign-1, i=2147483647");
        assertThat(first.rejected().get("p=Foreign-1, i=2147483647")).contains("attribute c");
        assertThat(first.complete()).isFalse();

        BackfillResult again = new Backfill(local.dynamo(), indexer, config).run();

        assertThat(again.eventsIngested()).as("events a re-run adds").isZero();
        assertThat(again.duplicatesDropped()).isEqualTo(events);
        feed.assertExactly(stored);
    }

    @Test
    void backfill_racing_the_live_poller_and_writers_leaves_every_event_once_in_order(LocalDynamo local) {
        String storeTable = IndexerTables.store(local);
        String indexTable = IndexerTables.index(local);
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).tipMaxBytes(400).build());
        List<StreamName> streams = new ArrayList<>();
        for (int s = 0; s < 6; s++) {
            streams.add(StreamName.parse("Order-" + s));
        }
        appendRound(store, streams, 0, 3);
        IndexerConfig indexer = IndexerConfig.builder(indexTable).partitions(2).limits(SMALL_EPOCHS).build();
        FeedReadback feed = new FeedReadback(local.dynamo(), indexTable, 2);
        PollerConfig pollerConfig = PollerConfig.of(storeTable).withIdleWait(Duration.ofMillis(20)).withRecordsPerRead(3);
        try (StreamsPoller poller = new StreamsPoller(local.dynamo(), local.streams(), Indexer.start(local.dynamo(), indexer), pollerConfig).start()) {
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> appendRound(store, streams, 3, 7));
            BackfillResult result = new Backfill(local.dynamo(), indexer,
                    BackfillConfig.of(storeTable).withSegments(2).withPageSize(5).withSpansPerBatch(3)).run();
            writer.join();
            assertThat(result.complete()).isTrue();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> feed.assertExactly(stored(store, streams)));
            assertThat(poller.stoppedShards()).isEmpty();
        }
    }

    private static void appendRound(StoreClient store, List<StreamName> streams, int from, int to) {
        for (int round = from; round < to; round++) {
            for (StreamName s : streams) {
                store.append(s, Expected.any(), events(round % 2 + 1));
            }
        }
    }

    private static List<EventData> events(int n) {
        List<EventData> out = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            out.add(EventData.json("Happened" + k, "{\"k\":" + k + "}"));
        }
        return out;
    }

    /** What the store holds: each stream's event types, read back (the truth the feed is checked against). */
    private static Map<StreamName, List<String>> stored(StoreClient store, List<StreamName> streams) {
        Map<StreamName, List<String>> out = new LinkedHashMap<>();
        for (StreamName s : streams) {
            out.put(s, store.readAll(s, Read.forward(0).typesOnly().strongly()).stream().map(StoredEvent::type).toList());
        }
        return out;
    }
}
