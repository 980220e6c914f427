package io.appendsfeed.indexer.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.model.feed.AppendsEpoch.EpochLimits;
import io.appendsfeed.indexer.FeedReadback;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.StreamRecords;
import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The indexer's IAM against what its code really sends: the Lambda path (start, ingest with epochs
 * closing and epoch Tips calving, a cold redelivery) runs on DynamoDB Local with every request
 * recorded, and the authorisations they need must be exactly those the template grants.
 */
@ExtendWith(LocalDynamoExtension.class)
class IndexerCallsTest {

    @Test
    void every_request_of_the_lambda_path_is_granted_and_every_grant_is_used(LocalDynamo local) {
        String store = IndexerTables.store(local);
        String index = local.freshTableName("index");
        io.appendsfeed.model.store.StoreTables.ensure(local.dynamo(), index, null);
        StoreClient writer = new StoreClient(local.dynamo(), StoreConfig.builder(store).build());
        for (int k = 0; k < 24; k++) {
            writer.append(StreamName.of("Order", Integer.toString(k % 8)), Expected.any(),
                    List.of(EventData.json("Placed", "{\"n\":" + k + "}")));
        }
        List<ChangeRecord> records = StreamRecords.all(local.dynamo(), local.streams(), store).stream().map(ChangeRecord::from).toList();

        CallRecorder recorder = new CallRecorder();
        // small epochs, so that epochs close and the index records their successors
        IndexerConfig config = IndexerConfig.builder(index).limits(new EpochLimits(4, 1 << 20, 1000)).build();
        try (DynamoDbClient dynamo = recordingClient(local, recorder)) {
            // an index begun by a Tip-first writer (equinox-js's indexer, before this one took over): the first write
            // drains its Tip into a calf (TransactWriteItems)
            Indexer.start(dynamo, config);
            new StoreClient(local.dynamo(), StoreConfig.builder(index).reservedStreams(true).build()).append(
                    StreamName.parse("$AppendsEpoch-0_0"), Expected.version(0), List.of(EventData.json("Ingested", "{\"add\":[],\"app\":[]}")));
            Indexer first = Indexer.start(dynamo, config);
            for (int from = 0; from < records.size(); from += 5) {
                assertThat(first.ingest(records.subList(from, Math.min(records.size(), from + 5))).complete()).isTrue();
            }
            // a cold instance handed the whole stream again (Lambda's retry after a timeout): nothing new
            BatchOutcome again = Indexer.start(dynamo, config).ingest(records);
            assertThat(again.complete()).isTrue();
        }
        assertThat(new FeedReadback(local.dynamo(), index, 1).streams().values().stream().mapToInt(List::size).sum()).isEqualTo(24);
        assertThat(recorder.operations()).as("the run covers draining a Tip").contains("TransactWriteItems");

        List<CallRecorder.Authorisation> needed = recorder.authorisations();
        assertThat(needed).extracting(CallRecorder.Authorisation::table).containsOnly(index);
        Set<String> actions = needed.stream().map(CallRecorder.Authorisation::action).collect(Collectors.toSet());
        assertThat(actions).containsExactlyInAnyOrderElementsOf(DeployPermissionsTest.INDEXER_INDEX_ACTIONS);
        for (CallRecorder.Authorisation a : needed) {
            assertThat(IamStringLike.matchesAny(DeployPermissionsTest.INDEXER_KEYS, a.partitionKey()))
                    .as(a + " is admitted by the template's dynamodb:LeadingKeys").isTrue();
        }
    }

    private static DynamoDbClient recordingClient(LocalDynamo local, CallRecorder recorder) {
        return DynamoDbClient.builder().endpointOverride(local.endpoint()).region(DynamoClients.LOCAL_REGION)
                .credentialsProvider(DynamoClients.LOCAL_CREDENTIALS)
                .overrideConfiguration(c -> c.addExecutionInterceptor(recorder))
                .build();
    }
}
