package io.appendsfeed.indexer.poller;

import static io.appendsfeed.indexer.poller.PollerFaultsTest.appendRounds;
import static io.appendsfeed.indexer.poller.PollerFaultsTest.streams;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.indexer.FeedReadback;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.poller.internal.ShardPositions;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Two pollers on one store table: one holds the lease and saves positions, the other stands by and takes over. */
@ExtendWith(LocalDynamoExtension.class)
class PollerLeaseTest {

    /** Long enough that a loaded test machine never stalls a holder past it (renewals come every third of it). */
    private static final Duration LEASE = Duration.ofSeconds(4);

    static PollerConfig config(String storeTable, String owner) {
        return PollerConfig.of(storeTable).withOwner(owner).withLeaseDuration(LEASE).withIdleWait(Duration.ofMillis(20));
    }

    static ShardPositions.Saved item(LocalDynamo local, String indexTable, String storeTable) {
        StoreClient index = new StoreClient(local.dynamo(), StoreConfig.builder(indexTable).reservedStreams(true).build());
        ShardPositions.Saved saved = ShardPositions.read(index, storeTable);
        assertThat(saved.etag()).as("the positions are saved").isNotNull();
        return saved;
    }

    /** The last sequence number the store table's stream holds in its one shard, as the saved positions should. */
    static String lastSequenceNumber(LocalDynamo local, String storeTable) {
        List<software.amazon.awssdk.services.dynamodb.model.Record> all =
                io.appendsfeed.indexer.StreamRecords.all(local.dynamo(), local.streams(), storeTable);
        return all.get(all.size() - 1).dynamodb().sequenceNumber();
    }

    @Test
    void the_standby_takes_over_when_the_holder_stops_and_saves_positions_from_then_on(LocalDynamo local) {
        String storeTable = IndexerTables.store(local);
        String indexTable = IndexerTables.index(local);
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).build());
        Map<StreamName, List<String>> expected = new LinkedHashMap<>();
        List<StreamName> streams = streams(10, 2);
        FeedReadback feed = new FeedReadback(local.dynamo(), indexTable, 2);
        IndexerConfig indexer = IndexerConfig.builder(indexTable).partitions(2).build();
        StreamsPoller first = new StreamsPoller(local.dynamo(), local.streams(), Indexer.start(local.dynamo(), indexer),
                config(storeTable, "first")).start();
        await().atMost(Duration.ofSeconds(20)).until(first::holdsLease);
        try (StreamsPoller second = new StreamsPoller(local.dynamo(), local.streams(), Indexer.start(local.dynamo(), indexer),
                config(storeTable, "second")).start()) {
            appendRounds(store, expected, streams, 2);
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> feed.assertExactly(expected));
            assertThat(second.holdsLease()).as("a standby while the first holds the lease").isFalse();
            assertThat(item(local, indexTable, storeTable).lease().owner()).isEqualTo("first");

            first.close();
            assertThat(item(local, indexTable, storeTable).lease().expiresAt()).as("released").isBeforeOrEqualTo(java.time.Instant.now());
            await().atMost(Duration.ofSeconds(20)).until(second::holdsLease);
            appendRounds(store, expected, streams, 2);
            String last = lastSequenceNumber(local, storeTable);
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                feed.assertExactly(expected);
                ShardPositions.Saved saved = item(local, indexTable, storeTable);
                assertThat(saved.lease().owner()).isEqualTo("second");
                assertThat(saved.positions().values()).extracting(ShardPositions.Position::sequenceNumber).contains(last);
            });
            assertThat(first.holdsLease()).isFalse();
        }
    }

    @Test
    void a_holder_that_dies_is_replaced_once_its_lease_expires_and_cannot_save_after(LocalDynamo local) {
        String storeTable = IndexerTables.store(local);
        String indexTable = IndexerTables.index(local);
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).build());
        Map<StreamName, List<String>> expected = new LinkedHashMap<>();
        List<StreamName> streams = streams(10, 2);
        FeedReadback feed = new FeedReadback(local.dynamo(), indexTable, 2);
        IndexerConfig indexer = IndexerConfig.builder(indexTable).partitions(2).build();
        appendRounds(store, expected, streams, 1);
        // driven by hand, then never again: a process that hangs or dies without releasing its lease
        StreamsPoller dead = new StreamsPoller(local.dynamo(), local.streams(), Indexer.start(local.dynamo(), indexer),
                config(storeTable, "dead"));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            dead.pollOnce();
            feed.assertExactly(expected);
        });
        assertThat(dead.holdsLease()).isTrue();
        try (StreamsPoller survivor = new StreamsPoller(local.dynamo(), local.streams(), Indexer.start(local.dynamo(), indexer),
                config(storeTable, "survivor")).start()) {
            await().atMost(Duration.ofSeconds(20)).until(survivor::holdsLease);
            assertThat(item(local, indexTable, storeTable).lease().owner()).isEqualTo("survivor");
            appendRounds(store, expected, streams, 1);
            String last = lastSequenceNumber(local, storeTable);
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                feed.assertExactly(expected);
                assertThat(item(local, indexTable, storeTable).positions().values())
                        .extracting(ShardPositions.Position::sequenceNumber).contains(last);
            });
            // the dead one comes back: its renewal finds the lease taken, and it stands by without writing
            assertThat(dead.pollOnce()).isZero();
            assertThat(dead.holdsLease()).isFalse();
            assertThat(item(local, indexTable, storeTable).lease().owner()).isEqualTo("survivor");
            assertThat(survivor.holdsLease()).isTrue();
        }
    }
}
