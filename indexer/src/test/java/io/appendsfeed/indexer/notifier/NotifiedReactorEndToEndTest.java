package io.appendsfeed.indexer.notifier;

import io.appendsfeed.indexer.notifier.NotifierHandler.Publisher;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.appendsfeed.model.feed.AppendsEpoch.EpochLimits;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.lambda.LambdaEvent;
import io.appendsfeed.indexer.poller.PollerConfig;
import io.appendsfeed.indexer.poller.StreamsPoller;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreTables;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.StreamHandler;
import io.appendsfeed.reader.lambda.ReactorHandler;
import io.appendsfeed.reader.lambda.ReactorSettings;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * End to end, every piece real but AWS's own plumbing: writers append to the store table; the
 * indexer (the poller) indexes them; the index table's own stream is delivered to the notifier Lambda
 * as Lambda delivers it; the notifier publishes to an SNS topic (a local SNS, moto) whose subscribed
 * SQS queue feeds the reactor Lambda as Lambda's SQS event source mapping does (two concurrent
 * pollers). Figures (latency from append to handler, invocations per 1,000 events) are printed, never
 * asserted; {@code -Dreactor.e2e.events=N -Dreactor.e2e.rate=R} sets the load (events, events/s).
 */
@ExtendWith(LocalDynamoExtension.class)
class NotifiedReactorEndToEndTest {

    private static final int PARTITIONS = 2;
    private static final int STREAMS = 24;

    @Test
    void every_event_reaches_the_lambda_reactor_once_in_order_and_its_checkpoint_the_tail(LocalDynamo local) throws Exception {
        int events = Integer.getInteger("reactor.e2e.events", 300);
        int rate = Integer.getInteger("reactor.e2e.rate", 50);
        try (Pipeline p = new Pipeline(local, null)) {
            long started = System.nanoTime();
            p.appendSteadily(events, rate);
            await("every event handled").atMost(Duration.ofSeconds(60 + events / Math.max(1, rate)))
                    .pollInterval(Duration.ofMillis(50)).until(() -> p.recorder.total() == events);
            double seconds = (System.nanoTime() - started) / 1e9;
            p.assertEachEventOnceInOrderAndCheckpointsAtTheTail();
            List<Long> latencies = p.latenciesMillis();
            System.out.printf("Lambda reactor end to end (poller idle 200 ms, index stream polled every 250 ms, SNS->SQS local,"
                            + " 2 SQS pollers, batching window 0): %d events at %d/s over %.1f s: append->handler p50 %d ms, p99 %d ms,"
                            + " max %d ms; notifier invocations %d (%.0f per 1,000 events), reactor invocations %d (%.0f per 1,000 events),"
                            + " %d notifications delivered, %d reported not reached%n",
                    events, rate, seconds, percentile(latencies, 50), percentile(latencies, 99), latencies.get(latencies.size() - 1),
                    p.notifications.invocations.get(), 1000.0 * p.notifications.invocations.get() / events,
                    p.reactor.invocations.get(), 1000.0 * p.reactor.invocations.get() / events, p.reactor.messages.get(),
                    p.reactor.failures.get());
        }
    }

    @Test
    void notifications_lost_repeated_or_reordered_are_harmless_and_the_schedule_heals_a_lost_one(LocalDynamo local) throws Exception {
        long seed = Long.getLong("reactor.chaos.seed", System.nanoTime());
        System.out.println("chaos seed " + seed + " (replay: -Dreactor.chaos.seed=" + seed + ")");
        try (Pipeline p = new Pipeline(local, seed)) {
            p.appendSteadily(200, 100);
            await("the pipeline quiet").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(p::quiet);
            assertThat(p.chaos.lost.get() + p.chaos.repeated.get() + p.chaos.reordered.get()).as("faults injected").isPositive();

            // the last events' notifications are all lost: nothing wakes the reactor
            p.chaos.loseAll();
            p.appendSteadily(10, 100);
            await("the last events indexed and seen by the notifier").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> p.quiet() && p.indexedEvents() == 210);
            assertThat(p.recorder.total()).as("events handled before the schedule").isLessThan(210);

            JsonNode response = p.invoke(p.function, """
                    {"version":"0","id":"89d1a02d","detail-type":"Scheduled Event","source":"aws.events","account":"123456789012",
                     "time":"2026-11-25T09:00:00Z","region":"us-east-1","resources":["arn:aws:events:us-east-1:123456789012:rule/r"],"detail":{}}""");
            assertThat(response.path("caughtUp").asBoolean()).isTrue();
            assertThat(p.recorder.total()).isEqualTo(210);
            p.assertEachEventOnceInOrderAndCheckpointsAtTheTail();
            idleScheduledRuns(p);
            System.out.printf("chaos: %d notifications lost, %d repeated, %d reordered; reactor invocations %d, %d messages, %d reported"
                    + " not reached; one scheduled run healed the lost ones%n", p.chaos.lost.get(), p.chaos.repeated.get(),
                    p.chaos.reordered.get(), p.reactor.invocations.get(), p.reactor.messages.get(), p.reactor.failures.get());
        }
    }

    /** What a scheduled run costs on a feed with nothing new: DynamoDB requests and capacity, printed. */
    private static void idleScheduledRuns(Pipeline p) throws Exception {
        Capacity capacity = new Capacity();
        try (software.amazon.awssdk.services.dynamodb.DynamoDbClient dynamo = software.amazon.awssdk.services.dynamodb.DynamoDbClient.builder()
                .endpointOverride(p.local.endpoint()).region(io.appendsfeed.model.DynamoClients.LOCAL_REGION)
                .credentialsProvider(io.appendsfeed.model.DynamoClients.LOCAL_CREDENTIALS)
                .overrideConfiguration(c -> c.addExecutionInterceptor(capacity)).build()) {
            ReactorHandler idle = new ReactorHandler(dynamo, ReactorSettings.from(Map.of(ReactorSettings.MARGIN_MILLIS, "3000")::get),
                    p.config, p.recorder) {};
            int before = p.recorder.total();
            int ticks = 3;
            for (int k = 0; k < ticks; k++) {
                assertThat(p.invoke(idle, SCHEDULED).path("caughtUp").asBoolean()).isTrue();
            }
            assertThat(p.recorder.total()).isEqualTo(before);
            System.out.printf("idle feed, %d partitions: one scheduled run = %.1f DynamoDB requests %s, %.1f RCU + %.1f WCU%n", PARTITIONS,
                    capacity.requests.get() / (double) ticks, capacity.byOperation(ticks), capacity.read() / ticks, capacity.write() / ticks);
        }
    }

    private static final String SCHEDULED = """
            {"version":"0","id":"89d1a02d","detail-type":"Scheduled Event","source":"aws.events","account":"123456789012",
             "time":"2026-11-25T09:00:00Z","region":"us-east-1","resources":["arn:aws:events:us-east-1:123456789012:rule/r"],"detail":{}}""";

    /** Counts requests and asks DynamoDB (Local) for the capacity each consumed. */
    static final class Capacity implements software.amazon.awssdk.core.interceptor.ExecutionInterceptor {
        final AtomicInteger requests = new AtomicInteger();
        final Map<String, AtomicInteger> operations = new ConcurrentHashMap<>();
        private final java.util.concurrent.atomic.DoubleAdder read = new java.util.concurrent.atomic.DoubleAdder();
        private final java.util.concurrent.atomic.DoubleAdder write = new java.util.concurrent.atomic.DoubleAdder();

        @Override
        public software.amazon.awssdk.core.SdkRequest modifyRequest(software.amazon.awssdk.core.interceptor.Context.ModifyRequest context,
                                                                   software.amazon.awssdk.core.interceptor.ExecutionAttributes attributes) {
            var r = context.request();
            var total = software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity.TOTAL;
            if (r instanceof software.amazon.awssdk.services.dynamodb.model.GetItemRequest g) return g.toBuilder().returnConsumedCapacity(total).build();
            if (r instanceof software.amazon.awssdk.services.dynamodb.model.QueryRequest q) return q.toBuilder().returnConsumedCapacity(total).build();
            if (r instanceof software.amazon.awssdk.services.dynamodb.model.PutItemRequest u) return u.toBuilder().returnConsumedCapacity(total).build();
            if (r instanceof software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest u) return u.toBuilder().returnConsumedCapacity(total).build();
            return r;
        }

        @Override
        public void afterExecution(software.amazon.awssdk.core.interceptor.Context.AfterExecution context,
                                   software.amazon.awssdk.core.interceptor.ExecutionAttributes attributes) {
            requests.incrementAndGet();
            operations.computeIfAbsent(context.request().getClass().getSimpleName().replace("Request", ""), k -> new AtomicInteger()).incrementAndGet();
            software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity c = null;
            var r = context.response();
            if (r instanceof software.amazon.awssdk.services.dynamodb.model.GetItemResponse g) c = g.consumedCapacity();
            if (r instanceof software.amazon.awssdk.services.dynamodb.model.QueryResponse q) c = q.consumedCapacity();
            if (r instanceof software.amazon.awssdk.services.dynamodb.model.PutItemResponse u) c = u.consumedCapacity();
            if (r instanceof software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse u) c = u.consumedCapacity();
            if (c != null && c.capacityUnits() != null) {
                boolean isWrite = r instanceof software.amazon.awssdk.services.dynamodb.model.PutItemResponse
                        || r instanceof software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;
                (isWrite ? write : read).add(c.capacityUnits());
            }
        }

        double read() { return read.sum(); }
        double write() { return write.sum(); }

        String byOperation(int ticks) {
            Map<String, String> out = new java.util.TreeMap<>();
            operations.forEach((k, v) -> out.put(k, String.format("%.1f", v.get() / (double) ticks)));
            return out.toString();
        }
    }

    private static long percentile(List<Long> sorted, int pct) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(pct / 100.0 * sorted.size()) - 1));
    }

    /** The reactor's handler: what it was given, when, and whether two calls for one stream overlapped. */
    static final class Recorder implements StreamHandler {
        final Map<StreamName, List<Long>> indices = new ConcurrentHashMap<>();
        final Map<String, Long> handledAt = new ConcurrentHashMap<>();
        final Map<StreamName, AtomicInteger> inFlight = new ConcurrentHashMap<>();
        final AtomicInteger overlaps = new AtomicInteger();

        @Override
        public HandlerResult handle(StreamName stream, List<FeedEvent> events) {
            long now = System.nanoTime();
            if (inFlight.computeIfAbsent(stream, s -> new AtomicInteger()).incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            try {
                List<Long> got = indices.computeIfAbsent(stream, s -> Collections.synchronizedList(new ArrayList<>()));
                for (FeedEvent e : events) {
                    got.add(e.index());
                    handledAt.putIfAbsent(stream.value() + "@" + e.index(), now);
                }
                return HandlerResult.handled();
            } finally {
                inFlight.get(stream).decrementAndGet();
            }
        }

        int total() {
            return indices.values().stream().mapToInt(List::size).sum();
        }
    }

    /** A reactor function as a user writes one. */
    static final class Reactor extends ReactorHandler {
        Reactor(LocalDynamo local, FeedReaderConfig config, StreamHandler handler) {
            super(local.dynamo(), ReactorSettings.from(Map.of(ReactorSettings.MARGIN_MILLIS, "3000")::get), config, handler);
        }
    }

    /** Writers, poller, index stream mapping, notifier, topic and queue, queue mapping, reactor. */
    static final class Pipeline implements AutoCloseable {
        private static final ObjectMapper JSON = new ObjectMapper();
        final LocalDynamo local;
        final String store;
        final String index;
        final StoreClient writer;
        final StreamsPoller poller;
        final LocalStreamMapping notifications;
        final LocalQueueMapping reactor;
        final ChaosPublisher chaos;
        final Recorder recorder = new Recorder();
        final Reactor function;
        final Map<String, Long> appendedAt = new ConcurrentHashMap<>();
        final Map<StreamName, Long> versions = new HashMap<>();
        final FeedReaderConfig config;

        Pipeline(LocalDynamo local, Long chaosSeed) {
            this.local = local;
            this.store = IndexerTables.store(local);
            this.index = local.freshTableName("index");
            StoreTables.ensure(local.dynamo(), index, StreamViewType.NEW_IMAGE);
            this.writer = new StoreClient(local.dynamo(), StoreConfig.builder(store).build());
            Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(index).partitions(PARTITIONS)
                    .limits(new EpochLimits(40, 1 << 20, 1000)).build());
            this.poller = new StreamsPoller(local.dynamo(), local.streams(), indexer, PollerConfig.of(store)).start();

            LocalMessaging messaging = LocalMessaging.shared();
            String topic = messaging.freshTopic();
            String queue = messaging.queueSubscribedTo(topic, Duration.ofSeconds(2));
            Publisher sns = new SnsPublisher(messaging.sns(), topic);
            this.chaos = chaosSeed == null ? null : new ChaosPublisher(sns, chaosSeed);
            NotifierHandler notifier = new NotifierHandler(chaos == null ? sns : chaos);
            this.notifications = new LocalStreamMapping(local, index, Duration.ofMillis(250), 100,
                    event -> notifier.notify(LambdaEvent.read(event).records()));

            this.config = FeedReaderConfig.builder("lambda-reactor", index, store).maxConcurrentStreams(4)
                    .commitInterval(Duration.ofMillis(200)).leaseTimeout(Duration.ofSeconds(5)).build();
            this.function = new Reactor(local, config, recorder);
            this.reactor = new LocalQueueMapping(messaging.sqs(), queue, function, 2, Duration.ZERO, Duration.ofSeconds(30));
        }

        /** Appends {@code n} events round-robin over the streams at {@code rate} per second, each timed when its append returned. */
        void appendSteadily(int n, int rate) throws InterruptedException {
            long start = System.nanoTime();
            for (int k = 0; k < n; k++) {
                long due = start + (long) (k * 1e9 / rate);
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000)); // pacing the load, not waiting for a result
                }
                StreamName stream = StreamName.of("Account", Integer.toString(k % STREAMS));
                long version = versions.getOrDefault(stream, 0L);
                AppendResult r = writer.append(stream, Expected.version(version), List.of(EventData.json("Deposited", "{\"k\":" + k + "}")));
                assertThat(r).isInstanceOf(AppendResult.Written.class);
                appendedAt.put(stream.value() + "@" + version, System.nanoTime());
                versions.put(stream, version + 1);
            }
        }

        long indexedEvents() {
            return new io.appendsfeed.indexer.FeedReadback(local.dynamo(), index, PARTITIONS).streams().values().stream()
                    .mapToLong(List::size).sum();
        }

        /** Everything appended is indexed, seen by the notifier, and the queue is empty with no invocation running. */
        boolean quiet() {
            return indexedEvents() == appendedAt.size() && notifications.idle() && reactor.drained();
        }

        void assertEachEventOnceInOrderAndCheckpointsAtTheTail() {
            assertThat(recorder.overlaps).hasValue(0);
            versions.forEach((stream, n) -> assertThat(recorder.indices.get(stream)).as(stream.value())
                    .containsExactlyElementsOf(LongStream.range(0, n).boxed().toList()));
            DynamoCheckpointStore checkpoints = new DynamoCheckpointStore(local.dynamo(), index, Clock.systemUTC());
            Map<PartitionId, Checkpoint> tails = tails();
            tails.forEach((p, tail) -> assertThat(checkpoints.read(config.group(), p).orElseThrow().checkpoint()).as("partition " + p)
                    .isEqualTo(tail));
        }

        /** Where a reader that handled everything commits (another group, read to the tail). */
        Map<PartitionId, Checkpoint> tails() {
            FeedReaderConfig c = FeedReaderConfig.builder("tails", index, store).loadBodies(false).build();
            try (FeedReader reader = new FeedReader(local.dynamo(), c, (s, e) -> HandlerResult.handled())) {
                assertThat(reader.runUntilCaughtUp(Duration.ofSeconds(30)).caughtUp()).isTrue();
            }
            DynamoCheckpointStore checkpoints = new DynamoCheckpointStore(local.dynamo(), index, Clock.systemUTC());
            Map<PartitionId, Checkpoint> out = new HashMap<>();
            for (int p = 0; p < PARTITIONS; p++) {
                out.put(PartitionId.of(p), checkpoints.read("tails", PartitionId.of(p)).orElseThrow().checkpoint());
            }
            return out;
        }

        List<Long> latenciesMillis() {
            List<Long> out = new ArrayList<>();
            appendedAt.forEach((key, at) -> out.add((recorder.handledAt.get(key) - at) / 1_000_000));
            Collections.sort(out);
            return out;
        }

        JsonNode invoke(ReactorHandler f, String event) throws Exception {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            f.handleRequest(new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8)), out, new LambdaContext(Duration.ofSeconds(30)));
            return JSON.readTree(out.toByteArray());
        }

        @Override
        public void close() throws InterruptedException {
            reactor.close();
            notifications.close();
            poller.close();
        }
    }
}
