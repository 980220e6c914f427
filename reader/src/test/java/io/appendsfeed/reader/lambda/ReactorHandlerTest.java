package io.appendsfeed.reader.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.FeedNotification;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.FeedFixture;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StartPosition;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The Lambda host of a reactor on DynamoDB Local, invoked through its stream entry point with
 * events in the shape AWS delivers them: SQS batches of the notifier's messages, EventBridge scheduled events.
 */
@ExtendWith(LocalDynamoExtension.class)
class ReactorHandlerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final ReactorSettings SETTINGS = ReactorSettings.from(Map.of(ReactorSettings.MARGIN_MILLIS, "2000")::get);

    @Test
    void notified_partitions_are_read_up_to_the_notified_positions_and_committed(LocalDynamo local) throws Exception {
        FeedFixture feed = feed(local, 2, 12);
        Handled handled = new Handled();
        ReactorHandler function = new TestReactor(local.dynamo(), SETTINGS, feed.config("projector").build(), handled);

        List<FeedNotification> notifications = Tails.notifications(feed.index, 2);
        JsonNode response = LambdaEvents.invoke(function, LambdaEvents.sqs(notifications), new LocalContext(TIMEOUT));

        assertThat(LambdaEvents.failures(response)).isEmpty();
        assertThat(response.toString()).isEqualTo("{\"batchItemFailures\":[]}");
        assertThat(handled.total()).isEqualTo(12);
        handled.indices.values().forEach(list -> assertThat(list).isSorted().doesNotHaveDuplicates());
        assertThat(handled.overlaps).hasValue(0);
        for (FeedNotification n : notifications) {
            assertThat(committed(local, feed, "projector", n.partition())).isEqualTo(n.position());
        }
    }

    @Test
    void a_notification_already_reached_reads_one_checkpoint_and_starts_no_reader(LocalDynamo local) throws Exception {
        FeedFixture feed = feed(local, 2, 6);
        Handled handled = new Handled();
        Calls calls = new Calls();
        try (DynamoDbClient dynamo = counting(local, calls)) {
            ReactorHandler function = new TestReactor(dynamo, SETTINGS, feed.config("projector").build(), handled);
            String event = LambdaEvents.sqs(Tails.notifications(feed.index, 2));
            assertThat(LambdaEvents.failures(LambdaEvents.invoke(function, event, new LocalContext(TIMEOUT)))).isEmpty();
            int handledOnce = handled.calls.get();
            calls.operations.clear();

            // the same notifications again, and older ones: a repeat or a late arrival
            String stale = LambdaEvents.sqs(List.of(FeedNotification.of(0, 1), FeedNotification.of(1, 0)));
            for (String again : List.of(event, stale)) {
                assertThat(LambdaEvents.failures(LambdaEvents.invoke(function, again, new LocalContext(TIMEOUT)))).isEmpty();
            }
            assertThat(handled.calls).hasValue(handledOnce);
            assertThat(calls.operations).as("one consistent read of the checkpoint per notified partition, nothing else")
                    .containsExactly("GetItem", "GetItem", "GetItem", "GetItem");
        }
    }

    @Test
    void a_position_the_feed_has_not_reached_is_reported_for_sqs_to_deliver_again(LocalDynamo local) throws Exception {
        FeedFixture feed = feed(local, 1, 4);
        Handled handled = new Handled();
        ReactorHandler function = new TestReactor(local.dynamo(), SETTINGS, feed.config("projector").build(), handled);
        Checkpoint tail = Tails.of(feed.index, 0);
        var reachable = LambdaEvents.sqsMessage("reachable", FeedNotification.of(0, tail.value()).toJson(), Map.of());
        var ahead = LambdaEvents.sqsMessage("ahead", new FeedNotification(PartitionId.of(0), tail.plus(5)).toJson(), Map.of());

        long start = System.nanoTime();
        JsonNode response = LambdaEvents.invoke(function, LambdaEvents.batch(reachable, ahead), new LocalContext(TIMEOUT));
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(LambdaEvents.failures(response)).containsExactly("ahead");
        assertThat(handled.total()).isEqualTo(4);
        assertThat(committed(local, feed, "projector", PartitionId.of(0))).isEqualTo(tail);
        // it looked again for a while (another invocation might have held the lease), not for the whole invocation
        assertThat(took).isLessThan(TIMEOUT.minus(SETTINGS.margin()));
    }

    @Test
    void messages_that_are_not_notifications_are_failures_and_the_rest_is_read(LocalDynamo local) throws Exception {
        FeedFixture feed = feed(local, 1, 3);
        Handled handled = new Handled();
        ReactorHandler function = new TestReactor(local.dynamo(), SETTINGS, feed.config("projector").build(), handled);
        Checkpoint tail = Tails.of(feed.index, 0);
        String event = LambdaEvents.batch(
                LambdaEvents.sqsMessage("garbage", "hello", Map.of()),
                LambdaEvents.sqsMessage("bad-attribute", "", Map.of("Partition", "0", "Position", "soon")),
                LambdaEvents.sqsMessage("good", FeedNotification.of(0, tail.value()).toJson(), Map.of()));
        JsonNode response = LambdaEvents.invoke(function, event, new LocalContext(TIMEOUT));
        assertThat(LambdaEvents.failures(response)).containsExactlyInAnyOrder("garbage", "bad-attribute");
        assertThat(handled.total()).isEqualTo(3);
    }

    @Test
    void notifications_carried_by_attributes_alone_are_read_and_snss_envelope_is_a_failure(LocalDynamo local) throws Exception {
        FeedFixture feed = feed(local, 2, 8);
        Handled handled = new Handled();
        ReactorHandler function = new TestReactor(local.dynamo(), SETTINGS, feed.config("projector").build(), handled);
        Checkpoint p0 = Tails.of(feed.index, 0);
        Checkpoint p1 = Tails.of(feed.index, 1);
        // a queue subscribed without raw message delivery gets SNS's envelope as the body: reactor.yaml subscribes raw
        String envelope = LambdaEvents.JSON.createObjectNode().put("Type", "Notification").put("MessageId", "m-1")
                .put("TopicArn", "arn:aws:sns:us-east-1:123456789012:feed").put("Message", FeedNotification.of(0, p0.value()).toJson())
                .toString();
        // Propulsion's notifier: the position as the body, partition and position as attributes
        String event = LambdaEvents.batch(LambdaEvents.sqsMessage("enveloped", envelope, Map.of()),
                LambdaEvents.sqsMessage("propulsion-0", Long.toString(p0.value()), Map.of("Partition", "0", "Position", Long.toString(p0.value()))),
                LambdaEvents.sqsMessage("propulsion-1", Long.toString(p1.value()), Map.of("Partition", "1", "Position", Long.toString(p1.value()))));
        assertThat(LambdaEvents.failures(LambdaEvents.invoke(function, event, new LocalContext(TIMEOUT)))).containsExactly("enveloped");
        assertThat(handled.total()).isEqualTo(8);
        assertThat(committed(local, feed, "projector", PartitionId.of(0))).isEqualTo(p0);
        assertThat(committed(local, feed, "projector", PartitionId.of(1))).isEqualTo(p1);
    }

    @Test
    void the_aws_shaped_fixtures_are_read_sqs_and_scheduled(LocalDynamo local) throws Exception {
        FeedFixture feed = feed(local, 2, 10);
        Map<String, String> tails = Map.of("P0", Long.toString(Tails.of(feed.index, 0).value()),
                "P1", Long.toString(Tails.of(feed.index, 1).value()));
        for (String fixture : List.of("sqs-notifications.json", "scheduled-event.json")) {
            Handled handled = new Handled();
            String group = "g-" + fixture.replace(".json", "");
            ReactorHandler function = new TestReactor(local.dynamo(), SETTINGS, feed.config(group).build(), handled);
            JsonNode response = LambdaEvents.invoke(function, LambdaEvents.resource(fixture, tails), new LocalContext(TIMEOUT));
            if (fixture.startsWith("sqs")) {
                assertThat(response.toString()).isEqualTo("{\"batchItemFailures\":[]}");
            } else {
                assertThat(response.path("caughtUp").asBoolean()).as(fixture).isTrue();
            }
            assertThat(handled.total()).as(fixture).isEqualTo(10);
        }
    }

    @Test
    void a_scheduled_look_at_a_feed_with_nothing_new_writes_nothing_and_starts_no_reader(LocalDynamo local) throws Exception {
        FeedFixture feed = feed(local, 2, 6);
        Handled handled = new Handled();
        Calls calls = new Calls();
        String scheduled = LambdaEvents.resource("scheduled-event.json", Map.of());
        try (DynamoDbClient dynamo = counting(local, calls)) {
            ReactorHandler function = new TestReactor(dynamo, SETTINGS, feed.config("projector").build(), handled);
            JsonNode first = LambdaEvents.invoke(function, scheduled, new LocalContext(TIMEOUT));
            assertThat(first.path("runs").asInt()).isEqualTo(1);
            assertThat(handled.total()).isEqualTo(6);
            calls.operations.clear();

            JsonNode idle = LambdaEvents.invoke(function, scheduled, new LocalContext(TIMEOUT));
            assertThat(idle.path("caughtUp").asBoolean()).isTrue();
            assertThat(idle.path("runs").asInt()).isZero();
            assertThat(calls.operations).as("reads only: index, parked streams, epoch Tips, checkpoints")
                    .isNotEmpty().doesNotContain("PutItem", "UpdateItem", "TransactWriteItems", "BatchWriteItem");
            assertThat(handled.total()).isEqualTo(6);

            // one more event in partition 1: only that partition is read
            feed.ingest(feed.write(feed.streamIn("Order", 1, 0), "Placed"));
            assertThat(LambdaEvents.invoke(function, scheduled, new LocalContext(TIMEOUT)).path("runs").asInt()).isEqualTo(1);
            assertThat(handled.total()).isEqualTo(7);
        }
    }

    @Test
    void a_group_that_ever_parked_a_stream_is_read_on_every_schedule_so_that_a_release_is_replayed(LocalDynamo local) throws Exception {
        FeedFixture feed = feed(local, 1, 3);
        String poison = feed.streamIn("Order", 0, 0);
        Handled handled = new Handled() {
            @Override
            protected void apply(StreamName stream, List<FeedEvent> events) {
                if (stream.value().equals(poison)) {
                    throw new IllegalStateException("fails, so that the stream is parked");
                }
            }
        };
        ReactorHandler function = new TestReactor(local.dynamo(), SETTINGS, feed.config("projector").parkAfterAttempts(1).build(), handled);
        String scheduled = LambdaEvents.resource("scheduled-event.json", Map.of());
        assertThat(LambdaEvents.invoke(function, scheduled, new LocalContext(TIMEOUT)).path("caughtUp").asBoolean()).isTrue();
        assertThat(LambdaEvents.invoke(function, scheduled, new LocalContext(TIMEOUT)).path("runs").asInt()).isEqualTo(1);
    }

    @Test
    void a_scheduled_run_that_cannot_catch_up_fails_so_lambda_retries(LocalDynamo local) throws Exception {
        FeedFixture feed = feed(local, 2, 4);
        feed.unknownEpochEvent(1, "Rebalanced");               // a newer format: partition 1 stops there
        Handled handled = new Handled();
        ReactorHandler function = new TestReactor(local.dynamo(), SETTINGS, feed.config("projector").build(), handled);
        String scheduled = LambdaEvents.resource("scheduled-event.json", Map.of());
        assertThatThrownBy(() -> LambdaEvents.invoke(function, scheduled, new LocalContext(TIMEOUT)))
                .isInstanceOfSatisfying(ReactorHandler.NotCaughtUpException.class, e -> {
                    assertThat(e.outcome().problems()).singleElement().asString().startsWith("partition 1:").contains("Rebalanced");
                    assertThat(e.outcome().caughtUp()).isFalse();
                });
        assertThat(handled.total()).as("partition 0 and what partition 1 had before").isEqualTo(4);

        // an invocation without time beyond its margin does not start reading
        ReactorHandler healthy = new TestReactor(local.dynamo(), SETTINGS, feed.config("other").partitions(
                java.util.Set.of(PartitionId.of(0))).build(), new Handled());
        assertThatThrownBy(() -> LambdaEvents.invoke(healthy, scheduled, new LocalContext(SETTINGS.margin().minusMillis(100))))
                .isInstanceOf(ReactorHandler.NotCaughtUpException.class).hasMessageContaining("no time left");
    }

    @Test
    void two_concurrent_invocations_never_read_one_partition_at_once_and_handle_each_event_once(LocalDynamo local) throws Exception {
        FeedFixture feed = feed(local, 2, 40);
        CountDownLatch bothStarted = new CountDownLatch(1);
        Handled handled = new Handled() {
            @Override
            protected void apply(StreamName stream, List<FeedEvent> events) throws InterruptedException {
                bothStarted.await(5, TimeUnit.SECONDS);     // hold the first calls until the second invocation runs too
            }
        };
        FeedReaderConfig config = feed.config("projector").maxConcurrentStreams(2).build();
        String event = LambdaEvents.sqs(Tails.notifications(feed.index, 2));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<JsonNode>> results = new ArrayList<>();
            for (int k = 0; k < 2; k++) {
                ReactorHandler function = new TestReactor(local.dynamo(), SETTINGS, config, handled);
                results.add(pool.submit(() -> LambdaEvents.invoke(function, event, new LocalContext(TIMEOUT))));
            }
            bothStarted.countDown();
            for (Future<JsonNode> r : results) {
                assertThat(LambdaEvents.failures(r.get(60, TimeUnit.SECONDS))).isEmpty();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(handled.overlaps).hasValue(0);
        assertThat(handled.total()).isEqualTo(40);
        handled.indices.values().forEach(list -> assertThat(list).isSorted().doesNotHaveDuplicates());
    }

    @Test
    void an_event_of_another_kind_is_refused_naming_its_shape(LocalDynamo local) {
        FeedFixture feed = feed(local, 1, 1);
        ReactorHandler function = new TestReactor(local.dynamo(), SETTINGS, feed.config("projector").build(), new Handled());
        assertThatThrownBy(() -> LambdaEvents.invoke(function, "{\"Records\":[{\"eventSource\":\"aws:dynamodb\"}]}", new LocalContext(TIMEOUT)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("SQS messages or EventBridge scheduled events")
                .hasMessageContaining("eventSource");
    }

    @Test
    void an_explicit_start_or_another_group_than_the_deployed_one_is_refused(LocalDynamo local) {
        FeedFixture feed = feed(local, 1, 1);
        assertThatThrownBy(() -> new TestReactor(local.dynamo(), SETTINGS, feed.config("projector").start(StartPosition.tail()).build(),
                new Handled())).hasMessageContaining("StartPosition.storedOr(");
        ReactorSettings deployed = ReactorSettings.from(Map.of(ReactorSettings.GROUP, "mailer")::get);
        assertThatThrownBy(() -> new TestReactor(local.dynamo(), deployed, feed.config("projector").build(), new Handled()))
                .hasMessageContaining("reads group 'projector' but APPENDS_GROUP is 'mailer'");
        new TestReactor(local.dynamo(), SETTINGS, feed.config("projector").start(StartPosition.storedOr(StartPosition.tail())).build(),
                new Handled());
    }

    /** A feed of {@code events} one-event spans over 5 streams per partition, spread over the partitions. */
    private static FeedFixture feed(LocalDynamo local, int partitions, int events) {
        FeedFixture feed = new FeedFixture(local, partitions);
        for (int k = 0; k < events; k++) {
            int p = k % partitions;
            feed.ingest(feed.write(feed.streamIn("Order", p, (k / partitions) % 5), "Placed"));
        }
        return feed;
    }

    private static Checkpoint committed(LocalDynamo local, FeedFixture feed, String group, PartitionId p) {
        return new DynamoCheckpointStore(local.dynamo(), feed.indexTable, Clock.systemUTC()).read(group, p).orElseThrow().checkpoint();
    }

    private static DynamoDbClient counting(LocalDynamo local, Calls calls) {
        return DynamoDbClient.builder().endpointOverride(local.endpoint()).region(DynamoClients.LOCAL_REGION)
                .credentialsProvider(DynamoClients.LOCAL_CREDENTIALS).overrideConfiguration(c -> c.addExecutionInterceptor(calls)).build();
    }

    /** The DynamoDB operations a client sends. */
    private static final class Calls implements ExecutionInterceptor {
        final List<String> operations = new CopyOnWriteArrayList<>();

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            operations.add(context.request().getClass().getSimpleName().replace("Request", ""));
        }
    }
}
