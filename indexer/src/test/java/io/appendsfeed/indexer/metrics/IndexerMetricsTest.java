package io.appendsfeed.indexer.metrics;

import static io.appendsfeed.indexer.IndexerMetrics.ACCEPTED;
import static io.appendsfeed.indexer.IndexerMetrics.BATCH_TIME;
import static io.appendsfeed.indexer.IndexerMetrics.CONFLICTS;
import static io.appendsfeed.indexer.IndexerMetrics.DUPLICATES;
import static io.appendsfeed.indexer.IndexerMetrics.EPOCHS_CLOSED;
import static io.appendsfeed.indexer.IndexerMetrics.INCOMPLETE;
import static io.appendsfeed.indexer.IndexerMetrics.RCU;
import static io.appendsfeed.indexer.IndexerMetrics.RECORDS;
import static io.appendsfeed.indexer.IndexerMetrics.RECORD_AGE;
import static io.appendsfeed.indexer.IndexerMetrics.REJECTED;
import static io.appendsfeed.indexer.IndexerMetrics.SKIPPED;
import static io.appendsfeed.indexer.IndexerMetrics.SPANS;
import static io.appendsfeed.indexer.IndexerMetrics.WCU;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.model.feed.AppendsEpoch.EpochLimits;
import io.appendsfeed.indexer.FeedReadback;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerMetrics;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.StreamRecords;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.metrics.MicrometerMetrics;
import io.appendsfeed.model.store.CapacityMeter.Capacity;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.Unfold;
import io.appendsfeed.model.testing.EmfCapture;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.DoubleAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The figures the indexer reports against what a real ingest on DynamoDB Local did. */
@ExtendWith(LocalDynamoExtension.class)
class IndexerMetricsTest {

    static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

    /** A store with {@code streams} streams of {@code events} appends each and one unfold-only write; its Streams records. */
    static List<ChangeRecord> write(LocalDynamo local, String storeTable, int streams, int events) {
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).build());
        for (int s = 0; s < streams; s++) {
            StreamName name = StreamName.parse("Account-" + s);
            for (int e = 0; e < events; e++) {
                store.append(name, Expected.version(e), List.of(EventData.json("E" + e, "{}")));
            }
        }
        store.writeUnfolds(StreamName.parse("Account-0"), Expected.any(), List.of(Unfold.json("Balance", "{\"b\":1}")));
        return StreamRecords.all(local.dynamo(), local.streams(), storeTable).stream().map(ChangeRecord::from).toList();
    }

    static Instant newest(List<ChangeRecord> records) {
        return records.stream().map(ChangeRecord::approximateCreation).filter(Objects::nonNull).max(Instant::compareTo).orElseThrow();
    }

    @Test
    void one_emf_line_per_batch_with_what_the_batch_did(LocalDynamo local) {
        String storeTable = IndexerTables.store(local);
        String indexTable = IndexerTables.index(local);
        List<ChangeRecord> records = write(local, storeTable, 5, 3);
        EmfCapture emf = new EmfCapture();
        List<Capacity> metered = new ArrayList<>();
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable).partitions(2)
                .clock(Clock.fixed(NOW, ZoneOffset.UTC)).metrics(emf.metrics())
                .meter((op, table, c) -> { synchronized (metered) { metered.add(c); } }).build());
        metered.clear(); // opening the index is not a batch

        BatchOutcome first = indexer.ingest(records, "shardId-0001");
        double rcu = metered.stream().mapToDouble(Capacity::readUnits).sum();
        double wcu = metered.stream().mapToDouble(Capacity::writeUnits).sum();
        BatchOutcome again = indexer.ingest(records, "shardId-0001");

        List<JsonNode> lines = emf.lines();
        assertThat(lines).as("one line per batch").hasSize(2);
        JsonNode line = lines.get(0);
        assertThat(line.get(RECORDS.name()).asInt()).isEqualTo(records.size()).isEqualTo(16);
        assertThat(line.get(SKIPPED.name()).asInt()).as("the unfold-only write").isEqualTo(1);
        assertThat(line.get(REJECTED.name()).asInt()).isZero();
        assertThat(line.get(SPANS.name()).asInt()).as("one span per append").isEqualTo(15);
        assertThat(line.get(ACCEPTED.name()).asInt()).isEqualTo(15);
        assertThat(line.get(DUPLICATES.name()).asInt()).isZero();
        assertThat(line.get(CONFLICTS.name()).asInt()).isZero();
        assertThat(line.get(INCOMPLETE.name()).asInt()).isZero();
        assertThat(line.get(EPOCHS_CLOSED.name()).asInt()).isZero();
        assertThat(line.get(WCU.name()).asDouble()).as("what DynamoDB reported for the batch's calls").isEqualTo(wcu).isPositive();
        assertThat(line.get(RCU.name()).asDouble()).isEqualTo(rcu);
        assertThat(line.get(BATCH_TIME.name()).asDouble()).isEqualTo(first.elapsed().toNanos() / 1e6).isPositive();
        assertThat(line.get(RECORD_AGE.name()).asLong()).isEqualTo(NOW.toEpochMilli() - newest(records).toEpochMilli());
        assertThat(line.get("feed").asText()).isEqualTo(indexTable);
        assertThat(line.get("shard").asText()).isEqualTo("shardId-0001");
        JsonNode directive = line.get("_aws").get("CloudWatchMetrics").get(0);
        assertThat(directive.get("Namespace").asText()).isEqualTo("appendsfeed");
        assertThat(directive.get("Dimensions").toString()).isEqualTo("[[\"feed\",\"shard\"],[\"feed\"]]");
        assertThat(directive.get("Metrics")).hasSize(IndexerMetrics.ALL.size());
        assertThat(line.get("_aws").get("Timestamp").asLong()).isEqualTo(NOW.toEpochMilli());

        JsonNode redelivery = lines.get(1);
        assertThat(redelivery.get(ACCEPTED.name()).asInt()).isZero();
        assertThat(redelivery.get(DUPLICATES.name()).asInt()).as("the redelivered events, dropped").isEqualTo(15);
        assertThat(redelivery.get(WCU.name()).asDouble()).as("nothing written").isZero();
        assertThat(again.acceptedEvents()).isZero();
        assertThat(new FeedReadback(local.dynamo(), indexTable, 2).streams().values().stream().mapToInt(List::size).sum())
                .as("the feed holds what the metrics say was accepted").isEqualTo(15);
    }

    @Test
    void without_metrics_or_a_meter_no_capacity_is_asked_for(LocalDynamo local) {
        String storeTable = IndexerTables.store(local);
        String indexTable = IndexerTables.index(local);
        List<ChangeRecord> records = write(local, storeTable, 2, 1);
        BatchOutcome o = Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable).build()).ingest(records);
        assertThat(o.acceptedEvents()).isEqualTo(2);
        assertThat(o.capacity()).isSameAs(Capacity.NONE);
        assertThat(o.elapsed()).isPositive();
        assertThat(o.newestRecordAt()).isEqualTo(newest(records));
    }

    @Test
    void epochs_closed_and_a_rejected_record_are_counted(LocalDynamo local) {
        String storeTable = IndexerTables.store(local);
        String indexTable = IndexerTables.index(local);
        List<ChangeRecord> records = write(local, storeTable, 3, 2);
        EmfCapture emf = new EmfCapture();
        // every Ingested closes its epoch: one epoch per write
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable)
                .limits(new EpochLimits(1, EpochLimits.DEFAULT.maxBytes(), EpochLimits.DEFAULT.maxStreams()))
                .metrics(emf.metrics()).build());
        indexer.ingest(records.subList(0, 3));
        List<ChangeRecord> poisoned = new ArrayList<>(records.subList(3, records.size()));
        ChangeRecord r = poisoned.get(1);
        poisoned.set(1, new ChangeRecord(r.sequenceNumber(), "INSERT", r.viewType(), r.keys(), null, r.approximateCreation()));
        BatchOutcome o = indexer.ingest(poisoned);

        List<JsonNode> lines = emf.lines();
        long closedInFeed = new FeedReadback(local.dynamo(), indexTable, 1).epochs().stream().filter(FeedReadback.Epoch::closed).count();
        assertThat(closedInFeed).isPositive();
        assertThat(emf.sum(EPOCHS_CLOSED)).isEqualTo(closedInFeed);
        JsonNode last = lines.get(1);
        assertThat(last.get(REJECTED.name()).asInt()).isEqualTo(1);
        assertThat(last.get(INCOMPLETE.name()).asInt()).isEqualTo(1);
        assertThat(last.get(ACCEPTED.name()).asLong()).isEqualTo(o.acceptedEvents()).isEqualTo(1);
        assertThat(last.has("shard")).as("no shard given").isFalse();
        assertThat(last.get("_aws").get("CloudWatchMetrics").get(0).get("Dimensions").toString()).isEqualTo("[[\"feed\"]]");
    }

    @Test
    void micrometer_counters_add_up_the_batches_and_the_timer_counts_them(LocalDynamo local) {
        String storeTable = IndexerTables.store(local);
        String indexTable = IndexerTables.index(local);
        List<ChangeRecord> records = write(local, storeTable, 4, 2);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        DoubleAdder wcu = new DoubleAdder();
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable)
                .clock(Clock.fixed(NOW, ZoneOffset.UTC)).metrics(new MicrometerMetrics(registry))
                .meter((op, table, c) -> wcu.add(c.writeUnits())).build());
        wcu.reset();
        indexer.ingest(records.subList(0, 4), "s1");
        indexer.ingest(records.subList(4, records.size()), "s1");
        indexer.ingest(records, "s2");

        assertThat(registry.get("appendsfeed.indexer.records").tag("shard", "s1").counter().count()).isEqualTo(records.size());
        assertThat(registry.get("appendsfeed.indexer.records").tag("shard", "s2").counter().count()).isEqualTo(records.size());
        assertThat(registry.get("appendsfeed.indexer.events.accepted").tag("shard", "s1").counter().count()).isEqualTo(8);
        assertThat(registry.get("appendsfeed.indexer.events.duplicate").tag("shard", "s2").counter().count()).isEqualTo(8);
        assertThat(registry.get("appendsfeed.indexer.batch.time").tag("shard", "s1").timer().count()).isEqualTo(2);
        assertThat(registry.get("appendsfeed.indexer.batch.time").tag("shard", "s1").timer().totalTime(TimeUnit.NANOSECONDS)).isPositive();
        double reported = registry.get("appendsfeed.indexer.wcu").counters().stream().mapToDouble(c -> c.count()).sum();
        assertThat(reported).isCloseTo(wcu.sum(), within(1e-9)).isPositive();
        assertThat(registry.get("appendsfeed.indexer.record.age").tag("shard", "s2").gauge().value())
                .isEqualTo(NOW.toEpochMilli() - newest(records).toEpochMilli());
        assertThat(registry.get("appendsfeed.indexer.records").tag("feed", indexTable).counters()).hasSize(2);
    }
}
