package io.appendsfeed.indexer;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.AppendsEpoch.EpochLimits;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.Tip;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.model.testing.faults.Fault;
import io.appendsfeed.model.testing.faults.FaultInjector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Every epoch's Tip reaches its calves' end: Tip-first readers (equinox-js, Propulsion) and the notifier,
 * which wakes on Tip changes, see every epoch whole. A batch that does not say more is waiting leaves every
 * Tip there; batches that do may leave the active epoch's behind (never ahead), and {@link Indexer#moveTips()},
 * the Lambda's schedule, moves it, from any process. A Tip whose update failed is moved by the retry of the
 * batch, warm or cold.
 */
@ExtendWith(LocalDynamoExtension.class)
class EpochTipTest {

    /** A store Tip's Streams record: stream {@code p} now at version {@code n}, its last event new. */
    static ChangeRecord tipRecord(long seq, String p, long n) {
        Map<String, AttributeValue> image = new HashMap<>();
        image.put("p", AttributeValue.fromS(p));
        image.put("i", AttributeValue.fromN("2147483647"));
        image.put("n", AttributeValue.fromN(Long.toString(n)));
        image.put("a", AttributeValue.fromN("1"));
        List<AttributeValue> c = new ArrayList<>();
        for (long k = 0; k < n; k++) {
            c.add(AttributeValue.fromS(k == 0 ? "Opened" : "Deposited"));
        }
        image.put("c", AttributeValue.fromL(c));
        return new ChangeRecord(String.format("%08d", seq), n == 1 ? "INSERT" : "MODIFY", "NEW_IMAGE",
                Map.of("p", image.get("p"), "i", image.get("i")), image, null);
    }

    /** Full batches of {@code size} records over {@code streams} streams, back to back. */
    static List<List<ChangeRecord>> batches(int count, int size, int streams) {
        Map<String, Long> versions = new HashMap<>();
        List<List<ChangeRecord>> out = new ArrayList<>();
        long seq = 0;
        for (int b = 0; b < count; b++) {
            List<ChangeRecord> batch = new ArrayList<>();
            for (int k = 0; k < size; k++) {
                String p = "Account-" + (seq % streams);
                batch.add(tipRecord(seq++, p, versions.merge(p, 1L, Long::sum)));
            }
            out.add(batch);
        }
        return out;
    }

    /** Asserts that every epoch of every partition has a Tip, at the end of its calves; returns how many epochs there are. */
    static int assertEveryEpochHasItsTip(LocalDynamo local, String table, int partitions) {
        Tips tips = tips(local, table, partitions);
        assertThat(tips.behind()).as("epochs whose Tip is missing or behind its calves").isZero();
        assertThat(tips.epochs()).as("epochs checked").isPositive();
        return tips.epochs();
    }

    @Test
    void full_batches_back_to_back_then_nothing_leave_every_epoch_with_its_tip(LocalDynamo local) {
        String table = IndexerTables.index(local);
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(table).partitions(2)
                .limits(new EpochLimits(10, 1 << 20, 1000)).build());

        for (List<ChangeRecord> batch : batches(20, 100, 300)) { // as a Lambda with BatchSize 100 under a backlog
            assertThat(indexer.ingest(batch, "shard-1").complete()).isTrue();
        }

        assertThat(assertEveryEpochHasItsTip(local, table, 2)).as("epochs closed along the way").isGreaterThanOrEqualTo(4);
    }

    /** How many epochs there are, and how many have their Tip missing or behind their calves. */
    record Tips(int epochs, int behind) {}

    /** Asserts that no epoch's Tip is ahead of its calves. */
    static Tips tips(LocalDynamo local, String table, int partitions) {
        StoreClient index = new StoreClient(local.dynamo(), StoreConfig.builder(table).reservedStreams(true).build());
        int epochs = 0, behind = 0;
        for (int p = 0; p < partitions; p++) {
            for (int e = 0; ; e++) {
                StreamName epoch = FeedStreams.epoch(PartitionId.of(p), EpochId.of(e));
                long calves = index.readAll(epoch, Read.forward(0).strongly()).size();
                if (calves == 0) {
                    break;
                }
                epochs++;
                long tip = index.readTip(epoch, true).map(Tip::version).orElse(0L);
                assertThat(tip).as("%s: the Tip is never ahead of its calves", epoch).isLessThanOrEqualTo(calves);
                behind += tip < calves ? 1 : 0;
            }
        }
        return new Tips(epochs, behind);
    }

    static int tipsBehind(LocalDynamo local, String table, int partitions) {
        return tips(local, table, partitions).behind();
    }

    @Test
    void full_batches_that_say_more_is_waiting_leave_the_tip_behind_until_the_schedule_moves_it(LocalDynamo local) {
        String table = IndexerTables.index(local);
        UnknownStreamTest.TestClock clock = new UnknownStreamTest.TestClock();
        IndexerConfig config = IndexerConfig.builder(table).partitions(2).limits(new EpochLimits(10, 1 << 20, 1000)).clock(clock).build();
        Indexer indexer = Indexer.start(local.dynamo(), config);

        List<List<ChangeRecord>> batches = batches(17, 100, 300);
        for (List<ChangeRecord> batch : batches.subList(0, 15)) { // a backlog within a second (an epoch closed), then quiet
            assertThat(indexer.ingest(batch, "shard-1", true).complete()).isTrue();
        }

        assertThat(tipsBehind(local, table, 2)).as("the active epochs' Tips").isEqualTo(2);
        Indexer.start(local.dynamo(), config).moveTips(); // the schedule's invocation, in another process
        assertThat(tipsBehind(local, table, 2)).isZero();
        assertEveryEpochHasItsTip(local, table, 2);

        indexer.ingest(batches.get(15), "shard-1", true);
        assertThat(tipsBehind(local, table, 2)).as("within a second of the last move").isEqualTo(2);
        clock.advance(java.time.Duration.ofMillis(1001));
        indexer.ingest(batches.get(16), "shard-1", true);
        assertThat(tipsBehind(local, table, 2)).as("a second on, the batch moves them though more is waiting").isZero();
    }

    @Test
    void a_batch_that_does_not_say_more_is_waiting_moves_every_tip_an_earlier_one_left_behind(LocalDynamo local) {
        String table = IndexerTables.index(local);
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(table).partitions(2).build());
        List<List<ChangeRecord>> batches = batches(2, 50, 20);
        assertThat(indexer.ingest(batches.get(0), "shard-1", true).complete()).isTrue();
        assertThat(tipsBehind(local, table, 2)).as("both partitions' Tips").isEqualTo(2);

        List<ChangeRecord> onePartition = batches.get(1).stream().filter(r -> r.keys().get("p").s().equals("Account-0")).toList();
        assertThat(indexer.ingest(onePartition, "shard-1", false).complete()).isTrue();

        assertThat(tipsBehind(local, table, 2)).as("the partition the last batch did not touch too").isZero();
    }

    @Test
    void a_tip_update_that_fails_fails_the_batch_and_its_retry_moves_the_tip_warm_or_cold(LocalDynamo local) {
        String table = IndexerTables.index(local);
        AtomicInteger tipFailures = new AtomicInteger();
        FaultInjector faults = new FaultInjector(call -> call.operation().equals("UpdateItem")
                && call.request().toString().contains("$AppendsEpoch") && tipFailures.getAndDecrement() > 0
                ? Optional.of(Fault.failBefore()) : Optional.empty());
        IndexerConfig config = IndexerConfig.builder(table).build();
        Indexer warm = Indexer.start(faults.wrap(local.dynamo()), config);
        List<List<ChangeRecord>> batches = batches(3, 10, 7);
        assertThat(warm.ingest(batches.get(0)).complete()).isTrue();

        tipFailures.set(1); // the Tip's update at the end of the batch
        BatchOutcome failed = warm.ingest(batches.get(1));

        assertThat(failed.complete()).as("the Tip could not be moved: the batch is delivered again").isFalse();
        assertThat(failed.firstNotIngested()).isEqualTo(batches.get(1).get(0).sequenceNumber());
        BatchOutcome retried = warm.ingest(batches.get(1));
        assertThat(retried.complete()).isTrue();
        assertThat(retried.duplicateEvents()).as("its events were in").isEqualTo(10);
        assertEveryEpochHasItsTip(local, table, 1);

        tipFailures.set(1);
        assertThat(warm.ingest(batches.get(2)).complete()).isFalse(); // and the process dies
        BatchOutcome cold = Indexer.start(local.dynamo(), config).ingest(batches.get(2));
        assertThat(cold.complete()).isTrue();
        assertThat(cold.duplicateEvents()).isEqualTo(10);
        assertEveryEpochHasItsTip(local, table, 1);
    }
}
