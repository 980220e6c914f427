package io.appendsfeed.indexer.kcl;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.dynamodbv2.streamsadapter.adapter.DynamoDBStreamsClientRecord;
import com.amazonaws.services.dynamodbv2.streamsadapter.model.DynamoDBStreamsProcessRecordsInput;
import io.appendsfeed.indexer.FeedReadback;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.StreamRecords;
import io.appendsfeed.indexer.kcl.internal.IndexingProcessor;
import io.appendsfeed.indexer.internal.RejectedLog;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.model.testing.faults.Fault;
import io.appendsfeed.model.testing.faults.FaultInjector;
import io.appendsfeed.model.testing.faults.FaultPlan;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.kinesis.lifecycle.events.InitializationInput;
import software.amazon.kinesis.lifecycle.events.ShardEndedInput;
import software.amazon.kinesis.processor.RecordProcessorCheckpointer;

/**
 * The record processor's checkpointing, with real KCL and adapter types built by hand and real
 * records from DynamoDB Local (fast: no KCL scheduler). The checkpointer records what KCL would be told.
 */
@ExtendWith(LocalDynamoExtension.class)
class IndexingProcessorTest {

    /** Records {@code checkpoint(seq)} as the sequence number, {@code checkpoint()} (the shard's end) as "END". */
    private static RecordProcessorCheckpointer recording(List<String> checkpoints) {
        return (RecordProcessorCheckpointer) Proxy.newProxyInstance(RecordProcessorCheckpointer.class.getClassLoader(),
                new Class<?>[] {RecordProcessorCheckpointer.class}, (proxy, method, args) -> {
                    if (method.getName().equals("checkpoint") && args == null) {
                        checkpoints.add("END");
                        return null;
                    }
                    if (method.getName().equals("checkpoint") && args.length == 1 && args[0] instanceof String s) {
                        checkpoints.add(s);
                        return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    private record Fixture(String indexTable, List<Record> records, StoreClient index) {}

    private static Fixture fixture(LocalDynamo local) {
        String storeTable = IndexerTables.store(local);
        String indexTable = IndexerTables.index(local);
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).build());
        for (int s = 0; s < 3; s++) {
            store.append(StreamName.parse("Account-" + s), Expected.version(0), List.of(EventData.json("Opened", "{}")));
        }
        Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable).build()); // creates the index, unfaulted
        return new Fixture(indexTable, StreamRecords.all(local.dynamo(), local.streams(), storeTable),
                new StoreClient(local.dynamo(), StoreConfig.builder(indexTable).reservedStreams(true).build()));
    }

    private static IndexingProcessor processor(DynamoDbClient dynamo, Fixture f, KclConfig.OnRejected onRejected, IndexingProcessor.Worker[] state) {
        KclConfig config = KclConfig.builder("app", "arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/1")
                .retryBackoff(Duration.ofMillis(5)).onRejected(onRejected).build();
        state[0] = new IndexingProcessor.Worker(Indexer.start(dynamo, IndexerConfig.builder(f.indexTable()).build()), config,
                new RejectedLog(f.index()), "t", new CountDownLatch(1), new AtomicLong());
        IndexingProcessor p = new IndexingProcessor(state[0]);
        p.initialize(InitializationInput.builder().shardId("shard-1").build());
        return p;
    }

    private static DynamoDBStreamsProcessRecordsInput batch(List<Record> records, List<String> checkpoints) {
        return DynamoDBStreamsProcessRecordsInput.builder().records(records.stream().map(DynamoDBStreamsClientRecord::fromRecord).toList())
                .checkpointer(recording(checkpoints)).build();
    }

    private static Record withoutTypes(Record r) {
        Map<String, AttributeValue> image = new HashMap<>(r.dynamodb().newImage());
        image.remove("c");
        return r.toBuilder().dynamodb(r.dynamodb().toBuilder().newImage(image).build()).build();
    }

    private static String seq(Record r) {
        return r.dynamodb().sequenceNumber();
    }

    @Test
    void a_batch_whose_writes_fail_is_retried_in_place_and_checkpointed_only_once_ingested(LocalDynamo local) {
        Fixture f = fixture(local);
        FaultInjector faults = new FaultInjector(FaultPlan.builder().calls("PutItem", 1, 2, Fault.failBefore()).build());
        List<String> checkpoints = new ArrayList<>();
        IndexingProcessor p = processor(faults.wrap(local.dynamo()), f, KclConfig.OnRejected.STOP_SHARD, new IndexingProcessor.Worker[1]);

        p.processRecords(batch(f.records(), checkpoints));

        assertThat(faults.count(Fault.FailBefore.class)).isEqualTo(2);
        assertThat(checkpoints).containsExactly(seq(f.records().get(2)));
        new FeedReadback(local.dynamo(), f.indexTable(), 1).assertExactly(Map.of(
                StreamName.parse("Account-0"), List.of("Opened"), StreamName.parse("Account-1"), List.of("Opened"),
                StreamName.parse("Account-2"), List.of("Opened")));
        p.shardEnded(ShardEndedInput.builder().checkpointer(recording(checkpoints)).build());
        assertThat(checkpoints).endsWith("END");
    }

    @Test
    void each_attempt_reports_its_figures_under_the_shard(LocalDynamo local) {
        Fixture f = fixture(local);
        FaultInjector faults = new FaultInjector(FaultPlan.builder().calls("PutItem", 1, 2, Fault.failBefore()).build());
        io.micrometer.core.instrument.simple.SimpleMeterRegistry registry = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        KclConfig config = KclConfig.builder("app", "arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/1")
                .retryBackoff(Duration.ofMillis(5)).build();
        IndexingProcessor.Worker state = new IndexingProcessor.Worker(Indexer.start(faults.wrap(local.dynamo()), IndexerConfig.builder(f.indexTable())
                .metrics(new io.appendsfeed.model.metrics.MicrometerMetrics(registry)).build()), config, new RejectedLog(f.index()), "t",
                new CountDownLatch(1), new AtomicLong());
        IndexingProcessor p = new IndexingProcessor(state);
        p.initialize(InitializationInput.builder().shardId("shard-7").build());

        p.processRecords(batch(f.records(), new ArrayList<>()));

        assertThat(registry.get("appendsfeed.indexer.batches.incomplete").tag("shard", "shard-7").counter().count())
                .as("the two attempts whose write failed").isEqualTo(2);
        assertThat(registry.get("appendsfeed.indexer.batch.time").tag("shard", "shard-7").timer().count()).isEqualTo(3);
        assertThat(registry.get("appendsfeed.indexer.events.accepted").tag("shard", "shard-7").counter().count()).isEqualTo(3);
    }

    @Test
    void a_rejected_record_stops_the_shard_just_before_it_and_its_end_is_not_checkpointed(LocalDynamo local) {
        Fixture f = fixture(local);
        List<Record> r = f.records();
        List<String> checkpoints = new ArrayList<>();
        IndexingProcessor p = processor(local.dynamo(), f, KclConfig.OnRejected.STOP_SHARD, new IndexingProcessor.Worker[1]);

        p.processRecords(batch(List.of(r.get(0), withoutTypes(r.get(1)), r.get(2)), checkpoints));
        p.processRecords(batch(List.of(r.get(2)), checkpoints)); // KCL moves on: the processor must not

        assertThat(checkpoints).containsExactly(seq(r.get(0)));
        new FeedReadback(local.dynamo(), f.indexTable(), 1).assertExactly(Map.of(StreamName.parse("Account-0"), List.of("Opened")));
        p.shardEnded(ShardEndedInput.builder().checkpointer(recording(checkpoints)).build());
        assertThat(checkpoints).doesNotContain("END");
    }

    @Test
    void a_rejected_record_is_recorded_and_passed_when_so_configured(LocalDynamo local) {
        Fixture f = fixture(local);
        List<Record> r = f.records();
        List<String> checkpoints = new ArrayList<>();
        IndexingProcessor p = processor(local.dynamo(), f, KclConfig.OnRejected.RECORD_AND_CONTINUE, new IndexingProcessor.Worker[1]);

        p.processRecords(batch(List.of(r.get(0), withoutTypes(r.get(1)), r.get(2)), checkpoints));

        assertThat(checkpoints).containsExactly(seq(r.get(0)), seq(r.get(1)), seq(r.get(2)));
        assertThat(f.index().readAll(RejectedLog.STREAM, Read.forward(0))).singleElement()
                .satisfies(e -> assertThat(new String(e.data(), java.nio.charset.StandardCharsets.UTF_8)).contains(seq(r.get(1))));
        new FeedReadback(local.dynamo(), f.indexTable(), 1).assertExactly(Map.of(
                StreamName.parse("Account-0"), List.of("Opened"), StreamName.parse("Account-2"), List.of("Opened")));
    }

    @Test
    void closing_the_worker_while_a_batch_is_retried_checkpoints_nothing_of_it(LocalDynamo local) {
        Fixture f = fixture(local);
        FaultInjector faults = new FaultInjector(FaultPlan.builder().every("PutItem", Fault.failBefore()).build());
        List<String> checkpoints = Collections.synchronizedList(new ArrayList<>());
        IndexingProcessor.Worker[] state = new IndexingProcessor.Worker[1];
        IndexingProcessor p = processor(faults.wrap(local.dynamo()), f, KclConfig.OnRejected.STOP_SHARD, state);

        CompletableFuture<Void> running = CompletableFuture.runAsync(() -> p.processRecords(batch(f.records(), checkpoints)));
        state[0].closing().countDown();
        running.join();
        p.processRecords(batch(f.records(), checkpoints));

        assertThat(checkpoints).isEmpty();
        assertThat(state[0].recordsIngested()).hasValue(0);
    }
}
