package io.appendsfeed.indexer.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.model.feed.AppendsEpoch.EpochLimits;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.lambda.LambdaEvent;
import io.appendsfeed.indexer.poller.PollerConfig;
import io.appendsfeed.indexer.poller.StreamsPoller;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.FeedNotification;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Partitioner;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreTables;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The notifier Lambda fed with the index table's own Streams records (DynamoDB Local, Streams on the
 * index table), rendered as the Lambda runtime delivers them: written by a real indexer (the poller)
 * and by real readers committing.
 */
@ExtendWith(LocalDynamoExtension.class)
class NotifierHandlerTest {

    private static final int PARTITIONS = 2;

    @Test
    void each_batch_notifies_each_partition_it_moved_once_and_the_last_notification_is_the_readers_tail(LocalDynamo local) {
        Feed feed = new Feed(local);
        for (int round = 0; round < 6; round++) {
            feed.append(round, 5);
        }
        List<Record> records = IndexStreamEvents.records(local, feed.index);
        RecordingPublisher publisher = new RecordingPublisher();
        NotifierHandler handler = new NotifierHandler(publisher);
        Map<PartitionId, Checkpoint> last = new HashMap<>();
        int epochTips = 0;
        for (List<Record> batch : IndexStreamEvents.batches(records, 7)) {
            NotifierHandler.Outcome outcome = handler.notify(LambdaEvent.read(IndexStreamEvents.event(local, feed.index, batch)).records());
            epochTips += outcome.epochTips();
            assertThat(outcome.records()).isEqualTo(batch.size());
            assertThat(outcome.published()).extracting(FeedNotification::partition).doesNotHaveDuplicates();
            for (FeedNotification n : outcome.published()) {
                Checkpoint before = last.put(n.partition(), n.position());
                assertThat(before == null || before.compareTo(n.position()) < 0).as("positions of a partition only grow: " + n).isTrue();
            }
        }
        assertThat(epochTips).as("epoch Tip writes in the index stream: one per partition and round").isEqualTo(6 * PARTITIONS);
        assertThat(last).isEqualTo(feed.tails());
        // tiny epochs (4 Ingested, then Closed): a closing write is notified as the epoch's end, 0/5, just past its Closed
        // (its Tip carries no events: calf-first), which a reader that read the Closed has passed (it commits 1/0).
        // Record by record, so that no later write of the partition shares its batch (partitions are written at once)
        RecordingPublisher oneByOne = new RecordingPublisher();
        NotifierHandler single = new NotifierHandler(oneByOne);
        for (List<Record> batch : IndexStreamEvents.batches(records, 1)) {
            single.notify(LambdaEvent.read(IndexStreamEvents.event(local, feed.index, batch)).records());
        }
        assertThat(oneByOne.all()).contains(FeedNotification.of(0, 5), FeedNotification.of(1, 5));
    }

    @Test
    void readers_committing_parking_and_the_pollers_positions_wake_nobody(LocalDynamo local) {
        Feed feed = new Feed(local);
        feed.append(0, 6);
        feed.tails();                                    // two groups read to the tail: checkpoints, leases, groups
        StreamName poison = StreamName.parse(feed.stream(0, 0, 0));
        FeedReaderConfig parking = FeedReaderConfig.builder("parking", feed.index, feed.store).loadBodies(false)
                .parkAfterAttempts(1).retryBackoff(Duration.ofMillis(1), Duration.ofMillis(5)).build();
        try (FeedReader reader = new FeedReader(local.dynamo(), parking, (stream, events) -> {
            if (stream.equals(poison)) {
                throw new IllegalStateException("fails, so that the stream is parked");
            }
            return HandlerResult.handled();
        })) {
            assertThat(reader.runUntilCaughtUp(Duration.ofSeconds(30)).caughtUp()).isTrue();
        }
        List<Record> quiet = IndexStreamEvents.records(local, feed.index).stream()
                .filter(r -> !(r.dynamodb().keys().get("p").s().startsWith("$AppendsEpoch-")
                        && r.dynamodb().keys().get("i").n().equals("2147483647")))
                .toList();
        assertThat(quiet).extracting(r -> r.dynamodb().keys().get("p").s().replaceAll("-.*", "")).contains(
                "$ReaderCheckpoint", "$ReaderGroups", "$ReaderParked", "$AppendsPoller", "$AppendsIndex");

        RecordingPublisher publisher = new RecordingPublisher();
        NotifierHandler.Outcome outcome = new NotifierHandler(publisher)
                .notify(LambdaEvent.read(IndexStreamEvents.event(local, feed.index, quiet)).records());
        assertThat(outcome.published()).isEmpty();
        assertThat(outcome.ignored()).isEqualTo(quiet.size());
        assertThat(publisher.calls).as("no call at all").isEmpty();
    }

    @Test
    void an_unreadable_epoch_tip_fails_the_invocation_after_the_rest_was_published(LocalDynamo local) {
        Feed feed = new Feed(local);
        feed.append(0, 6);
        feed.append(1, 6);
        List<Record> records = IndexStreamEvents.records(local, feed.index);
        ObjectNode json = IndexStreamEvents.json(local, feed.index, records);
        ObjectNode broken = null;
        for (var r : json.withArray("Records")) {
            if (r.path("dynamodb").path("Keys").path("p").path("S").asText().equals("$AppendsEpoch-0_0")
                    && r.path("dynamodb").path("Keys").path("i").path("N").asText().equals("2147483647")) {
                broken = (ObjectNode) r.path("dynamodb");
                break;
            }
        }
        assertThat(broken).isNotNull();
        broken.remove("NewImage");
        String brokenSequence = broken.path("SequenceNumber").asText();                       // as a KEYS_ONLY stream would deliver it
        RecordingPublisher publisher = new RecordingPublisher();
        assertThatThrownBy(() -> new NotifierHandler(publisher).handleRequest(new java.io.ByteArrayInputStream(IndexStreamEvents.event(json)), java.io.OutputStream.nullOutputStream(), null))
                .isInstanceOfSatisfying(NotifierHandler.UnreadableEpochTipsException.class, e -> {
                    assertThat(e.rejected()).hasSize(1);
                    assertThat(e.rejected().get(0).sequenceNumber()).isEqualTo(brokenSequence);
                    assertThat(e.rejected().get(0).reason()).contains("NEW_IMAGE");
                });
        assertThat(publisher.all()).extracting(FeedNotification::partition).contains(PartitionId.of(0), PartitionId.of(1));
    }

    @Test
    void the_handler_built_from_its_environment_publishes_to_the_topic(LocalDynamo local) throws java.io.IOException {
        LocalMessaging messaging = LocalMessaging.shared();
        String topic = messaging.freshTopic();
        String queue = messaging.queueSubscribedTo(topic);
        Feed feed = new Feed(local);
        feed.append(0, 3);
        Map<String, String> env = Map.of(NotifierSettings.TOPIC_ARN, topic, NotifierSettings.ENDPOINT,
                messaging.endpoint().toString(), NotifierSettings.REGION, "us-east-1");
        new NotifierHandler(NotifierSettings.from(env::get))
                .handleRequest(new java.io.ByteArrayInputStream(IndexStreamEvents.event(local, feed.index, IndexStreamEvents.records(local, feed.index))),
                        java.io.OutputStream.nullOutputStream(), null);
        List<Message> got = messaging.receive(queue);
        assertThat(got).extracting(m -> FeedNotification.parseJson(m.body()))
                .containsExactlyInAnyOrderElementsOf(feed.tails().entrySet().stream()
                        .map(e -> new FeedNotification(e.getKey(), e.getValue())).toList());
    }

    @Test
    void settings_name_what_is_missing_or_wrong() {
        assertThatThrownBy(() -> NotifierSettings.from(Map.<String, String>of()::get))
                .hasMessageContaining("APPENDS_NOTIFY_TOPIC_ARN is not set");
        NotifierSettings s = NotifierSettings.from(Map.of(NotifierSettings.TOPIC_ARN, "arn:aws:sns:eu-west-1:123456789012:orders-feed",
                NotifierSettings.REGION, "eu-west-1")::get);
        assertThat(s.sns().endpoint()).isEmpty();
        assertThat(s.sns().region()).hasValueSatisfying(r -> assertThat(r.id()).isEqualTo("eu-west-1"));
    }

    /** A store table indexed by the poller into an index table whose own stream is on. */
    private static final class Feed {
        final LocalDynamo local;
        final String store;
        final String index;
        final StoreClient writer;
        final StreamsPoller poller;

        Feed(LocalDynamo local) {
            this.local = local;
            this.store = IndexerTables.store(local);
            this.index = local.freshTableName("index");
            StoreTables.ensure(local.dynamo(), index, StreamViewType.NEW_IMAGE);
            this.writer = new StoreClient(local.dynamo(), StoreConfig.builder(store).build());
            Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(index).partitions(PARTITIONS)
                    .limits(new EpochLimits(4, 1 << 20, 1000)).build());
            this.poller = new StreamsPoller(local.dynamo(), local.streams(), indexer, PollerConfig.of(store));
        }

        /** Appends {@code events} events, to streams of round {@code round} in every partition in turn, then has the poller index them. */
        void append(int round, int events) {
            for (int k = 0; k < events; k++) {
                writer.append(StreamName.parse(stream(round, k % PARTITIONS, k / PARTITIONS % 2)), Expected.any(),
                        List.of(EventData.json("Placed", "{}")));
            }
            poller.pollOnce();
        }

        /** The {@code n}th stream of round {@code round} that routes to {@code partition}. */
        String stream(int round, int partition, int n) {
            int found = 0;
            for (int k = 0; ; k++) {
                String s = "Order-" + round + "x" + k;
                if (Partitioner.route(StreamName.parse(s), PARTITIONS).value() == partition && found++ == n) {
                    return s;
                }
            }
        }

        /** Where a reader that handled everything commits: read to the tail by two groups (so they commit, lease and register). */
        Map<PartitionId, Checkpoint> tails() {
            Map<PartitionId, Checkpoint> out = new HashMap<>();
            for (String group : List.of("tails", "tails-too")) {
                FeedReaderConfig config = FeedReaderConfig.builder(group, index, store).loadBodies(false).build();
                try (FeedReader reader = new FeedReader(local.dynamo(), config, (s, e) -> HandlerResult.handled())) {
                    assertThat(reader.runUntilCaughtUp(Duration.ofSeconds(30)).caughtUp()).isTrue();
                }
                DynamoCheckpointStore checkpoints = new DynamoCheckpointStore(local.dynamo(), index, Clock.systemUTC());
                for (int p = 0; p < PARTITIONS; p++) {
                    out.put(PartitionId.of(p), checkpoints.read(group, PartitionId.of(p)).orElseThrow().checkpoint());
                }
            }
            return out;
        }
    }
}
