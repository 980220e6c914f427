package io.appendsfeed.indexer;

import io.appendsfeed.model.feed.EpochLimits;
import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.Partitioner;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.Tip;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * While the source has more records waiting, a batch's write is the calf alone and the epoch's Tip
 * lags behind (for up to {@link IndexerConfig#tipLag()}); the batch that empties the source brings
 * every Tip up to date. The feed read forwards never lags.
 */
@ExtendWith(LocalDynamoExtension.class)
class TipLagTest {

    private static final EpochId E0 = EpochId.ZERO;

    /** A store Tip's Streams record: stream {@code p} now at version {@code n}, its last event new. */
    private static ChangeRecord tipRecord(long seq, String p, long n) {
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
        return new ChangeRecord(Long.toString(seq), n == 1 ? "INSERT" : "MODIFY", "NEW_IMAGE",
                Map.of("p", image.get("p"), "i", image.get("i")), image, null);
    }

    /** Records of {@code streams} streams of one partition (of {@code partitions}), each appended once more. */
    private static List<ChangeRecord> batch(AtomicLong seq, Map<String, Long> versions, int partitions, PartitionId partition, int streams) {
        List<ChangeRecord> out = new ArrayList<>();
        for (int k = 0; out.size() < streams; k++) {
            String p = "Account-" + k;
            if (!Partitioner.route(StreamName.parse(p), partitions).equals(partition)) {
                continue;
            }
            long n = versions.merge(p, 1L, Long::sum);
            out.add(tipRecord(seq.incrementAndGet(), p, n));
        }
        return out;
    }

    private static long tipVersion(StoreClient index, PartitionId p) {
        Optional<Tip> tip = index.readTip(FeedStreams.epoch(p, E0), true);
        return tip.map(Tip::version).orElse(0L);
    }

    private static long calvesEnd(StoreClient index, PartitionId p) {
        return index.readAll(FeedStreams.epoch(p, E0), io.appendsfeed.model.store.Read.forward(0)).size();
    }

    @Test
    void batches_with_more_waiting_write_once_and_the_last_brings_every_tip_up_to_date(LocalDynamo local) {
        String table = IndexerTables.index(local);
        List<String> ops = new java.util.concurrent.CopyOnWriteArrayList<>();
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(table).partitions(2)
                .meter((op, t, c) -> ops.add(op)).build());
        StoreClient index = new StoreClient(local.dynamo(), StoreConfig.builder(table).reservedStreams(true).build());
        PartitionId p0 = PartitionId.of(0);
        PartitionId p1 = PartitionId.of(1);
        AtomicLong seq = new AtomicLong();
        Map<String, Long> versions = new LinkedHashMap<>();

        for (int b = 0; b < 3; b++) {
            List<ChangeRecord> records = new ArrayList<>(batch(seq, versions, 2, p0, 5));
            records.addAll(batch(seq, versions, 2, p1, 5));
            ops.clear();
            BatchOutcome o = indexer.ingest(records, "shard-1", true);
            assertThat(o.complete()).isTrue();
            assertThat(ops).as("batch %d: one calf per partition, no Tip write", b)
                    .filteredOn(op -> !op.equals("GetItem") && !op.equals("Query")).containsExactly("PutItem", "PutItem");
            if (b > 0) {
                assertThat(ops).as("batch %d: nothing read either", b).containsExactly("PutItem", "PutItem");
            }
        }
        long end0 = calvesEnd(index, p0);
        long end1 = calvesEnd(index, p1);
        assertThat(end0).isGreaterThanOrEqualTo(3);
        assertThat(tipVersion(index, p0)).as("left behind: Tip-first readers see less, never more").isLessThan(end0);
        assertThat(tipVersion(index, p1)).isLessThan(end1);

        // the source is drained: this batch has records of partition 0 only, yet both Tips catch up
        ops.clear();
        assertThat(indexer.ingest(batch(seq, versions, 2, p0, 2), "shard-1", false).complete()).isTrue();
        assertThat(tipVersion(index, p0)).isEqualTo(calvesEnd(index, p0)).isEqualTo(end0 + 1);
        assertThat(tipVersion(index, p1)).isEqualTo(calvesEnd(index, p1)).isEqualTo(end1);
        assertThat(ops).containsExactlyInAnyOrder("PutItem", "UpdateItem", "UpdateItem");

        ops.clear();
        assertThat(indexer.ingest(batch(seq, versions, 2, p0, 2), "shard-1", false).complete()).isTrue();
        assertThat(ops).as("Tips up to date: calf and Tip, as without the lag").containsExactly("PutItem", "UpdateItem");
        Map<StreamName, List<String>> expected = new LinkedHashMap<>();
        versions.forEach((p, n) -> {
            List<String> types = new ArrayList<>();
            for (long k = 0; k < n; k++) {
                types.add(k == 0 ? "Opened" : "Deposited");
            }
            expected.put(StreamName.parse(p), types);
        });
        new FeedReadback(local.dynamo(), table, 2).assertExactly(expected);
    }

    @Test
    void a_tip_behind_for_longer_than_the_lag_moves_with_the_next_write(LocalDynamo local) {
        String table = IndexerTables.index(local);
        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
        Clock clock = new Clock() {
            @Override public ZoneId getZone() { return ZoneOffset.UTC; }
            @Override public Clock withZone(ZoneId zone) { return this; }
            @Override public Instant instant() { return now.get(); }
        };
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(table).clock(clock).tipLag(Duration.ofSeconds(1)).build());
        StoreClient index = new StoreClient(local.dynamo(), StoreConfig.builder(table).reservedStreams(true).build());
        PartitionId p0 = PartitionId.of(0);
        AtomicLong seq = new AtomicLong();
        Map<String, Long> versions = new LinkedHashMap<>();

        indexer.ingest(batch(seq, versions, 1, p0, 3), null, true);
        long behind = tipVersion(index, p0);
        long start = calvesEnd(index, p0) - 1;
        now.set(now.get().plusMillis(999));
        indexer.ingest(batch(seq, versions, 1, p0, 3), null, true);
        assertThat(tipVersion(index, p0)).as("within the lag").isEqualTo(behind).isLessThan(calvesEnd(index, p0));

        now.set(now.get().plusMillis(1));
        indexer.ingest(batch(seq, versions, 1, p0, 3), null, true);
        assertThat(tipVersion(index, p0)).as("a second after it was first left behind").isEqualTo(calvesEnd(index, p0))
                .isEqualTo(start + 3);

        now.set(now.get().plusMillis(10));
        indexer.ingest(batch(seq, versions, 1, p0, 3), null, true);
        assertThat(tipVersion(index, p0)).as("the lag starts again").isEqualTo(start + 3).isLessThan(calvesEnd(index, p0));
    }

    @Test
    void zero_lag_moves_the_tip_with_every_write(LocalDynamo local) {
        String table = IndexerTables.index(local);
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(table).tipLag(Duration.ZERO).build());
        StoreClient index = new StoreClient(local.dynamo(), StoreConfig.builder(table).reservedStreams(true).build());
        AtomicLong seq = new AtomicLong();
        Map<String, Long> versions = new LinkedHashMap<>();
        for (int b = 0; b < 3; b++) {
            indexer.ingest(batch(seq, versions, 1, PartitionId.of(0), 3), null, true);
            assertThat(tipVersion(index, PartitionId.of(0))).isEqualTo(calvesEnd(index, PartitionId.of(0)));
        }
    }

    @Test
    void the_write_that_closes_an_epoch_moves_its_tip_and_the_roll_reads_nothing(LocalDynamo local) {
        String table = IndexerTables.index(local);
        List<String> ops = new java.util.concurrent.CopyOnWriteArrayList<>();
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(table).meter((op, t, c) -> ops.add(op))
                .limits(new EpochLimits(4, EpochLimits.DEFAULT.maxBytes(), EpochLimits.DEFAULT.maxStreams())).build());
        StoreClient index = new StoreClient(local.dynamo(), StoreConfig.builder(table).reservedStreams(true).build());
        AtomicLong seq = new AtomicLong();
        Map<String, Long> versions = new LinkedHashMap<>();
        BatchOutcome o = null;
        indexer.ingest(batch(seq, versions, 1, PartitionId.of(0), 3), null, true); // the first: loads the index and epoch
        for (int b = 0; b < 10 && (o == null || o.partitions().get(0).epochsClosed() == 0); b++) {
            ops.clear();
            o = indexer.ingest(batch(seq, versions, 1, PartitionId.of(0), 3), null, true);
        }
        assertThat(o.partitions().get(0).epochsClosed()).isEqualTo(1);
        // the closed epoch's Tip says all of it, Closed included: Tip-first readers can move on
        assertThat(tipVersion(index, PartitionId.of(0))).isEqualTo(calvesEnd(index, PartitionId.of(0)));
        // closing, recording the successor in the index and going on in it: writes only
        assertThat(o.partitions().get(0).epoch()).isEqualTo(EpochId.of(1));
        assertThat(ops).as("the closing batch, which went on in the next epoch").isNotEmpty()
                .doesNotContain("GetItem", "Query", "BatchGetItem");
        ops.clear();
        indexer.ingest(batch(seq, versions, 1, PartitionId.of(0), 3), null, true);
        assertThat(ops).containsExactly("PutItem");
    }
}
