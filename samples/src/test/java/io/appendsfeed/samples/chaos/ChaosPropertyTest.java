package io.appendsfeed.samples.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.model.feed.AppendsEpoch.EpochLimits;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.store.StoreTables;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.model.testing.faults.Fault;
import io.appendsfeed.model.testing.faults.FaultInjector;
import io.appendsfeed.model.testing.faults.FaultPlan;
import io.appendsfeed.reader.FeedReader.CatchUpResult;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.FeedReaderConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * End to end under chaos: random tiny workloads written through faulty store clients, indexed from
 * the table's real Streams records by competing, crashing indexers fed redelivered and overlapping
 * batches, and read by readers that crash before committing, all through random fault schedules
 * (failures before sending, ambiguous timeouts after the write landed, throttling, delays). After
 * each run: every event the store holds reached the handler at least once and was applied exactly
 * once, in stream order; the feed holds each exactly once, no gap; checkpoints never moved backwards.
 *
 * <p>{@code -Dchaos.schedules=5000} for a soak run (default 200), {@code -Dchaos.seed=N} to choose
 * the seed (default: a new one each run, printed). A failure prints the failing schedule's own
 * seed: {@code -Dchaos.seed=<it> -Dchaos.schedules=1} replays exactly that schedule.
 */
@ExtendWith(LocalDynamoExtension.class)
class ChaosPropertyTest {

    static final List<Fault> KINDS = List.of(Fault.failBefore(), Fault.failAfter(), Fault.throttle(), Fault.delay(Duration.ofMillis(2)));
    static final Set<String> STORE_OPS = Set.of("PutItem", "UpdateItem", "TransactWriteItems", "GetItem", "Query");
    static final Set<String> READER_OPS = Set.of("PutItem", "UpdateItem", "TransactWriteItems", "GetItem", "Query", "BatchGetItem");
    private static final long SEED_STEP = 0x9E3779B97F4A7C15L;

    static {
        QuietLogs.unlessAsked();
    }

    @Test
    void nothing_is_lost_duplicated_or_reordered_under_random_faults(LocalDynamo local) {
        int schedules = Integer.getInteger("chaos.schedules", 200);
        long base = Long.getLong("chaos.seed", System.nanoTime());
        ChaosTotals totals = new ChaosTotals();
        long started = System.nanoTime();
        System.out.println("chaos: " + schedules + " schedules from seed " + base + " (replay: -Dchaos.seed=" + base
                + " -Dchaos.schedules=" + schedules + ")");
        for (int k = 0; k < schedules; k++) {
            Schedule schedule = Schedule.of(base + k * SEED_STEP);
            try {
                run(local, schedule, totals);
            } catch (Throwable e) {
                throw new AssertionError("chaos schedule " + (k + 1) + " of " + schedules + " failed: " + schedule
                        + "\n  replay it alone: -Dchaos.seed=" + schedule.seed() + " -Dchaos.schedules=1\n  " + e.getMessage(), e);
            }
        }
        System.out.println(totals.report(Duration.ofNanos(System.nanoTime() - started)));
        assertThat(totals.runs).isEqualTo(schedules);
        if (schedules >= 20) {
            assertThat(totals.faults()).as("the schedules injected faults").isPositive();
        }
    }

    private static void run(LocalDynamo local, Schedule s, ChaosTotals totals) {
        String storeTable = local.freshTableName("chaos-store");
        String indexTable = local.freshTableName("chaos-index");
        StoreTables.ensure(local.dynamo(), storeTable, StreamViewType.NEW_IMAGE);
        StoreTables.ensure(local.dynamo(), indexTable, null);

        // writers
        FaultInjector writeFaults = new FaultInjector(FaultPlan.random(s.seed() ^ 1, s.writeFaults(), KINDS, STORE_OPS));
        StoreConfig storeConfig = StoreConfig.builder(storeTable).tipMaxBytes(s.tipMaxBytes()).build();
        ChaosWriter writer = new ChaosWriter(new StoreClient(writeFaults.wrap(local.dynamo()), storeConfig));
        Map<StreamName, List<String>> believed = writer.write(s);
        Map<StreamName, List<String>> truth = truth(new StoreClient(local.dynamo(), storeConfig), s.streams());
        assertThat(believed).as("what the writers decided landed is what the store holds").isEqualTo(truth);

        // indexers, fed the table's own Streams records
        Map<StreamName, Integer> versions = new LinkedHashMap<>();
        truth.forEach((stream, types) -> versions.put(stream, types.size()));
        AtomicReference<List<ChangeRecord>> records = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(() -> {
            records.set(StoreStreamRecords.all(local.dynamo(), local.streams(), storeTable));
            return StoreStreamRecords.cover(records.get(), versions);
        });
        FaultInjector indexFaults = new FaultInjector(FaultPlan.random(s.seed() ^ 2, s.indexFaults(), KINDS, STORE_OPS));
        IndexerConfig indexerConfig = IndexerConfig.builder(indexTable).partitions(s.partitions())
                .limits(new EpochLimits(s.epochMaxEvents(), EpochLimits.DEFAULT_MAX_BYTES, EpochLimits.DEFAULT_MAX_STREAMS)).build();
        ChaosIndexing indexing = new ChaosIndexing(indexFaults.wrap(local.dynamo()), indexerConfig, s.seed() ^ 3);
        int acked = indexing.run(records.get());
        indexFaults.replacePlan(FaultPlan.none());
        acked = indexing.finish(records.get(), acked);
        assertThat(acked).as("every record acknowledged once faults stop").isEqualTo(records.get().size());
        StoreClient index = new StoreClient(local.dynamo(), StoreConfig.builder(indexTable).reservedStreams(true).build());
        FeedContents feed = new FeedContents(index, s.partitions());
        assertThat(feed.problems).as("the feed: no gap, no duplicate, right partitions").isEmpty();
        assertThat(feed.streams).as("the feed holds exactly what the store holds").isEqualTo(truth);

        // readers
        FaultPlan readPlan = FaultPlan.random(s.seed() ^ 4, s.readFaults(), KINDS, READER_OPS);
        FaultInjector readFaults = new FaultInjector(readPlan);
        FeedReaderConfig readerConfig = FeedReaderConfig.builder("chaos", indexTable, storeTable).leases(false)
                .pollInterval(Duration.ofMillis(10)).commitInterval(Duration.ofMillis(10 + (s.seed() & 0x3f)))
                .retryBackoff(Duration.ofMillis(2), Duration.ofMillis(20)).parkAfterAttempts(100)
                .parkedPollInterval(Duration.ofMillis(50)) // also how often partitions that failed to start are tried again
                .maxBatchEvents(s.maxBatchEvents()).loadBodies(s.loadBodies()).shutdownTimeout(Duration.ofSeconds(5)).build();
        Projection projection = new Projection(s.seed(), s.handlerFailures(), s.loadBodies());
        CheckpointWatch watch = new CheckpointWatch(new DynamoCheckpointStore(local.dynamo(), indexTable, Clock.systemUTC()),
                "chaos", s.partitions());
        ChaosReading reading = new ChaosReading(readFaults, readFaults.wrap(local.dynamo()), readerConfig, watch);
        CatchUpResult caughtUp = reading.run(projection, s.crashAfter(), readPlan);
        assertThat(caughtUp.caughtUp()).as("the reader caught up: %s", caughtUp.lag()).isTrue();
        assertThat(projection.violations).as("handed over with a gap, without a body or twice at once").isEmpty();
        assertThat(projection.applied).as("each event applied, in stream order").isEqualTo(truth);
        assertThat(projection.applications).as("each event applied exactly once")
                .allSatisfy((event, n) -> assertThat(n.get()).as(event).isEqualTo(1));
        assertThat(watch.backwards).as("checkpoints never move backwards").isEmpty();

        totals.add(s, truth, writer, writeFaults, indexing, indexFaults, feed, reading, readFaults, projection, watch);
    }

    private static Map<StreamName, List<String>> truth(StoreClient store, List<StreamName> streams) {
        Map<StreamName, List<String>> truth = new LinkedHashMap<>();
        for (StreamName stream : streams) {
            List<String> types = store.readAll(stream, Read.forward(0).typesOnly().strongly()).stream().map(StoredEvent::type).toList();
            if (!types.isEmpty()) {
                truth.put(stream, types);
            }
        }
        return truth;
    }
}
