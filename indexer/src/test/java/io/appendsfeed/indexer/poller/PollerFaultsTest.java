package io.appendsfeed.indexer.poller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.indexer.FeedReadback;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.poller.internal.ShardPositions;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Partitioner;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.model.testing.faults.Fault;
import io.appendsfeed.model.testing.faults.FaultInjector;
import io.appendsfeed.model.testing.faults.FaultPlan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The poller under single injected failures of its writes (epoch writes and position saves, lost
 * before they are sent or landed with the answer lost): whatever fails, it ends with every event
 * in the feed once, in order, and goes on saving its positions.
 */
@ExtendWith(LocalDynamoExtension.class)
class PollerFaultsTest {

    private static final Set<String> WRITES = Set.of("PutItem", "UpdateItem", "TransactWriteItems");
    private static final String POSITIONS = ShardPositions.CATEGORY + "-";

    /**
     * Injects {@code faults.get(k)} into the first write whose request names {@code targets.get(k)},
     * once each, in order: the k-th fault only after the (k-1)-th was injected.
     */
    static FaultPlan inOrder(List<String> targets, List<Fault> faults) {
        AtomicInteger next = new AtomicInteger();
        return call -> {
            int k = next.get();
            if (k < targets.size() && WRITES.contains(call.operation()) && call.request().toString().contains(targets.get(k))
                    && next.compareAndSet(k, k + 1)) {
                return Optional.of(faults.get(k));
            }
            return Optional.empty();
        };
    }

    /**
     * {@code Account-0} to {@code Account-<n-1>}, rotated so that the first is routed to partition 0: a
     * batch then starts with a span of partition 0, so a failure of partition 1 is in its middle.
     */
    static List<StreamName> streams(int n, int partitions) {
        List<StreamName> names = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            names.add(StreamName.parse("Account-" + s));
        }
        while (Partitioner.route(names.get(0), partitions).value() != 0) {
            names.add(names.remove(0));
        }
        return names;
    }

    /** One event per stream per round, so that every batch interleaves the streams (and so the partitions). */
    static void appendRounds(StoreClient store, Map<StreamName, List<String>> expected, List<StreamName> streams, int rounds) {
        for (int r = 0; r < rounds; r++) {
            for (StreamName name : streams) {
                List<String> types = expected.computeIfAbsent(name, x -> new ArrayList<>());
                String type = "E" + types.size();
                store.append(name, Expected.version(types.size()), List.of(EventData.json(type, "{}")));
                types.add(type);
            }
        }
    }

    /** Polls until the feed holds exactly {@code expected}; failures of a poll are kept (the run loop would retry them). */
    static List<RuntimeException> pollUntil(StreamsPoller poller, FeedReadback feed, Map<StreamName, List<String>> expected) {
        List<RuntimeException> failures = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
            try {
                poller.pollOnce();
            } catch (RuntimeException e) {
                failures.add(e);
            }
            assertThat(poller.stoppedShards()).isEmpty();
            feed.assertExactly(expected);
        });
        return failures;
    }

    @Test
    void an_epoch_write_lost_mid_batch_then_a_lost_position_save_lose_no_event(LocalDynamo local) {
        // 300 streams x 3 events, 2 partitions: partition 0's epoch write lands, partition 1's is lost
        // before it is sent, and so is the position save that follows
        String storeTable = IndexerTables.store(local);
        String indexTable = IndexerTables.index(local);
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).build());
        Map<StreamName, List<String>> expected = new LinkedHashMap<>();
        List<StreamName> streams = streams(300, 2);
        appendRounds(store, expected, streams, 3);
        FaultInjector faults = new FaultInjector(inOrder(List.of("$AppendsEpoch-1_", POSITIONS),
                List.of(Fault.failBefore(), Fault.failBefore())));
        DynamoDbClient dynamo = faults.wrap(local.dynamo());
        Indexer indexer = Indexer.start(dynamo, IndexerConfig.builder(indexTable).partitions(2).build());
        FeedReadback feed = new FeedReadback(local.dynamo(), indexTable, 2);
        try (StreamsPoller poller = new StreamsPoller(dynamo, local.streams(), indexer, PollerConfig.of(storeTable))) {
            assertThatThrownBy(poller::pollOnce).as("the lost position save surfaces (the run loop retries after it)")
                    .hasMessageContaining("injected FailBefore");
            assertThat(faults.injected()).as(faults.summary()).hasSize(2);
            // later appends to every stream, as in production: the feed must not start any stream with them
            appendRounds(store, expected, streams, 1);
            pollUntil(poller, feed, expected);
        }
        // and a restart from the saved positions reads only what came after them
        Indexer restarted = Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable).partitions(2).build());
        try (StreamsPoller poller = new StreamsPoller(local.dynamo(), local.streams(), restarted, PollerConfig.of(storeTable))) {
            assertThat(poller.pollOnce()).as("nothing unsaved before the restart").isZero();
        }
        feed.assertExactly(expected);
    }

    @Test
    void a_position_save_that_landed_with_its_answer_lost_is_resolved_by_reading_back(LocalDynamo local) {
        String storeTable = IndexerTables.store(local);
        String indexTable = IndexerTables.index(local);
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).build());
        Map<StreamName, List<String>> expected = new LinkedHashMap<>();
        List<StreamName> streams = streams(20, 2);
        appendRounds(store, expected, streams, 1);
        // the second save after an epoch write lands, and the poller is told it timed out
        Fault none = Fault.delay(Duration.ZERO);
        FaultInjector faults = new FaultInjector(inOrder(List.of("$AppendsEpoch-", POSITIONS, POSITIONS), List.of(none, none, Fault.failAfter())));
        DynamoDbClient dynamo = faults.wrap(local.dynamo());
        Indexer indexer = Indexer.start(dynamo, IndexerConfig.builder(indexTable).partitions(2).build());
        FeedReadback feed = new FeedReadback(local.dynamo(), indexTable, 2);
        try (StreamsPoller poller = new StreamsPoller(dynamo, local.streams(), indexer, PollerConfig.of(storeTable))) {
            assertThat(pollUntil(poller, feed, expected)).isEmpty();
            appendRounds(store, expected, streams, 1);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThatThrownBy(poller::pollOnce).hasMessageContaining("injected FailAfter"));
            feed.assertExactly(expected);
            appendRounds(store, expected, streams, 1);
            assertThat(pollUntil(poller, feed, expected)).as("no save fails after the lost answer").isEmpty();
            assertThat(poller.holdsLease()).isTrue();
        }
        // the positions were saved: a restart reads nothing again
        Indexer restarted = Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable).partitions(2).build());
        try (StreamsPoller poller = new StreamsPoller(local.dynamo(), local.streams(), restarted, PollerConfig.of(storeTable))) {
            assertThat(poller.pollOnce()).isZero();
        }
        feed.assertExactly(expected);
    }
}
