package io.appendsfeed.indexer.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.StreamRecords;
import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.reader.FeedReader.CatchUpResult;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The template's reactor policy against what the reader SDK really sends: a reader with leases,
 * bodies, a stream that fails until parked and is then released, runs on DynamoDB Local with every
 * request recorded. The actions it needs must be exactly those of ReadStore, ReadIndex and
 * WriteOwnGroupStreams, and every write must be to a reader stream the policy's dynamodb:LeadingKeys admit
 * to a role tagged with the reader's group, and (but for the shared group registry) refuse to another group's.
 */
@ExtendWith(LocalDynamoExtension.class)
class ReactorCallsTest {

    @Test
    void every_request_of_a_reader_is_granted_and_writes_only_reader_streams(LocalDynamo local) {
        String store = IndexerTables.store(local);
        String index = IndexerTables.index(local);
        StoreClient writer = new StoreClient(local.dynamo(), StoreConfig.builder(store).build());
        for (int k = 0; k < 12; k++) {
            writer.append(StreamName.of("Order", Integer.toString(k % 4)), Expected.any(), List.of(EventData.json("Placed", "{}")));
        }
        List<ChangeRecord> records = StreamRecords.all(local.dynamo(), local.streams(), store).stream().map(ChangeRecord::from).toList();
        assertThat(Indexer.start(local.dynamo(), IndexerConfig.builder(index).build()).ingest(records).complete()).isTrue();

        CallRecorder recorder = new CallRecorder();
        Set<StreamName> handled = ConcurrentHashMap.newKeySet();
        StreamName poison = StreamName.of("Order", "3");
        FeedReaderConfig config = FeedReaderConfig.builder("projector", index, store).loadBodies(true)
                .parkAfterAttempts(1).retryBackoff(Duration.ofMillis(1), Duration.ofMillis(5)).build();
        try (DynamoDbClient dynamo = recordingClient(local, recorder);
             FeedReader reader = new FeedReader(dynamo, config, (stream, events) -> {
                 if (stream.equals(poison)) {
                     throw new IllegalStateException("a handler failure, so that the stream is parked");
                 }
                 handled.add(stream);
                 return HandlerResult.handled();
             })) {
            CatchUpResult result = reader.runUntilCaughtUp(Duration.ofSeconds(20));
            assertThat(result.caughtUp()).isTrue();
            assertThat(reader.parked()).extracting(p -> p.stream()).containsExactly(poison);
            assertThat(reader.release(poison, "ReactorCallsTest")).isTrue();
        }
        assertThat(handled).hasSize(3);

        List<CallRecorder.Authorisation> needed = recorder.authorisations();
        assertThat(needed).extracting(CallRecorder.Authorisation::table).containsOnly(store, index);
        Set<String> onStore = actions(needed, store);
        Set<String> onIndex = actions(needed, index);
        // bodies: the latest items of many streams in one BatchGetItem; Query (also granted) reads a stream's older
        // items, when a reader is behind by more than a stream's latest item, which this run does not need
        assertThat(actions(needed, store)).as("store table: ReadStore").contains("dynamodb:BatchGetItem")
                .isSubsetOf("dynamodb:BatchGetItem", "dynamodb:Query");
        assertThat(actions(needed, index)).as("index table: ReadIndex and WriteOwnGroupStreams")
                .containsExactlyInAnyOrder("dynamodb:GetItem", "dynamodb:Query", "dynamodb:PutItem", "dynamodb:UpdateItem");
        List<CallRecorder.Authorisation> writes = needed.stream()
                .filter(a -> a.action().equals("dynamodb:PutItem") || a.action().equals("dynamodb:UpdateItem")).toList();
        Map<String, String> ownTag = Map.of(DeployPermissionsTest.GROUP_TAG, "projector");
        Map<String, String> otherTag = Map.of(DeployPermissionsTest.GROUP_TAG, "audit");
        for (CallRecorder.Authorisation w : writes) {
            assertThat(DeployPermissionsTest.reactorMayWrite(w.partitionKey(), ownTag))
                    .as(w + " is admitted by the reactor policy's dynamodb:LeadingKeys for the group's own role").isTrue();
            if (!w.partitionKey().equals("$ReaderGroups-0")) {
                assertThat(DeployPermissionsTest.reactorMayWrite(w.partitionKey(), otherTag))
                        .as(w + " is refused to another group's role").isFalse();
            }
        }
        // each kind of reader stream was written: checkpoints and leases, parked, groups
        assertThat(writes.stream().map(w -> w.partitionKey().substring(0, w.partitionKey().indexOf('-'))).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder("$ReaderCheckpoint", "$ReaderParked", "$ReaderGroups", "$ReaderInstances");
    }

    private static Set<String> actions(List<CallRecorder.Authorisation> needed, String table) {
        return needed.stream().filter(a -> a.table().equals(table)).map(CallRecorder.Authorisation::action).collect(Collectors.toSet());
    }

    private static DynamoDbClient recordingClient(LocalDynamo local, CallRecorder recorder) {
        return DynamoDbClient.builder().endpointOverride(local.endpoint()).region(DynamoClients.LOCAL_REGION)
                .credentialsProvider(DynamoClients.LOCAL_CREDENTIALS)
                .overrideConfiguration(c -> c.addExecutionInterceptor(recorder))
                .build();
    }
}
