package io.appendsfeed.indexer.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.StreamRecords;
import io.appendsfeed.indexer.cli.FeedCli;
import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.indexer.cli.CliContext;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The template's operator policies against what the feed CLI really sends: each read-only command
 * needs only OperatorReadPolicy's actions, and the writing commands add only OperatorWritePolicy's,
 * on reader streams its dynamodb:LeadingKeys admit. Every request is recorded on DynamoDB Local.
 */
@ExtendWith(LocalDynamoExtension.class)
class OperatorCallsTest {

    static final Set<String> READ_ACTIONS = Set.of("dynamodb:DescribeTable", "dynamodb:GetItem", "dynamodb:Query", "dynamodb:Scan");
    static final Set<String> WRITE_ACTIONS = Set.of("dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem");

    private LocalDynamo local;
    private String store;
    private String index;

    @BeforeEach
    void setUp(LocalDynamo local) {
        this.local = local;
        store = IndexerTables.store(local);
        index = IndexerTables.index(local);
        StoreClient writer = new StoreClient(local.dynamo(), StoreConfig.builder(store).build());
        for (int k = 0; k < 6; k++) {
            writer.append(StreamName.of("Order", Integer.toString(k % 3)), Expected.any(), List.of(EventData.json("Placed", "{}")));
        }
        List<ChangeRecord> records = StreamRecords.all(local.dynamo(), local.streams(), store).stream().map(ChangeRecord::from).toList();
        assertThat(Indexer.start(local.dynamo(), IndexerConfig.builder(index).build()).ingest(records).complete()).isTrue();
        new DynamoCheckpointStore(local.dynamo(), index, Clock.systemUTC()).commit("projector", PartitionId.of(0), Checkpoint.of(0, 1), "test", null);
    }

    @Test
    void read_only_commands_need_only_the_read_policy() {
        CallRecorder recorder = new CallRecorder();
        for (String[] args : new String[][] {{"checkpoints"}, {"checkpoints", "history", "--group", "projector"}, {"epochs"},
            {"tail", "--from", "start", "--until-caught-up"}, {"parked"}, {"verify"}}) {
            int exit = feed(recorder, args);
            assertThat(exit).as(String.join(" ", args)).isZero();
        }
        List<CallRecorder.Authorisation> needed = recorder.authorisations();
        assertThat(needed).extracting(CallRecorder.Authorisation::table).containsOnly(store, index);
        assertThat(needed).extracting(CallRecorder.Authorisation::action).allMatch(READ_ACTIONS::contains);
        assertThat(needed.stream().map(CallRecorder.Authorisation::action).collect(Collectors.toSet()))
                .as("what OperatorReadPolicy grants is what the commands use").isEqualTo(READ_ACTIONS);
        assertThat(policyActions("OperatorReadPolicy", "ReadTables")).isEqualTo(READ_ACTIONS);
    }

    @Test
    void writing_commands_add_only_the_write_policy_on_reader_streams() {
        CallRecorder recorder = new CallRecorder();
        for (String[] args : new String[][] {
            {"checkpoints", "set", "--group", "projector", "--partition", "0", "--to", "start", "--reason", "replay", "--yes"},
            {"parked", "release", "--group", "projector", "--all"},
            {"checkpoints", "delete", "--group", "projector", "--yes"}}) {
            assertThat(feed(recorder, args)).as(String.join(" ", args)).isZero();
        }
        List<CallRecorder.Authorisation> writes = recorder.authorisations().stream()
                .filter(a -> !READ_ACTIONS.contains(a.action())).toList();
        assertThat(writes).isNotEmpty();
        assertThat(writes).extracting(CallRecorder.Authorisation::action).allMatch(WRITE_ACTIONS::contains);
        assertThat(writes).extracting(CallRecorder.Authorisation::table).containsOnly(index);
        List<String> keys = DeployPermissionsTest.leadingKeys(DeployTemplate.load().statements(
                DeployTemplate.load().properties("OperatorWritePolicy").path("PolicyDocument")).get("WriteReaderStreams"));
        for (CallRecorder.Authorisation w : writes) {
            assertThat(IamStringLike.matchesAny(keys, w.partitionKey())).as(w + " is admitted by OperatorWritePolicy").isTrue();
        }
        assertThat(policyActions("OperatorWritePolicy", "WriteReaderStreams")).isEqualTo(WRITE_ACTIONS);
    }

    private Set<String> policyActions(String policy, String sid) {
        DeployTemplate template = DeployTemplate.load();
        JsonNode statement = template.statements(template.properties(policy).path("PolicyDocument")).get(sid);
        return DeployTemplate.strings(statement.path("Action"));
    }

    private int feed(CallRecorder recorder, String... args) {
        Map<String, String> env = Map.of("APPENDS_DYNAMODB_ENDPOINT", local.endpoint().toString(), "APPENDS_INDEX_TABLE", index,
                "APPENDS_STORE_TABLE", store);
        CliContext ctx = new CliContext(env::get, new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()),
                Clock.systemUTC(), "test", settings -> recordingClient(settings, recorder), new AtomicReference<>());
        return FeedCli.commandLine(ctx).execute(args);
    }

    private static DynamoDbClient recordingClient(DynamoClients.Settings settings, CallRecorder recorder) {
        return DynamoDbClient.builder().endpointOverride(settings.endpoint().orElseThrow()).region(settings.region().orElseThrow())
                .credentialsProvider(settings.credentials().orElseThrow())
                .overrideConfiguration(c -> c.addExecutionInterceptor(recorder)).build();
    }
}
