package io.appendsfeed.indexer.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The template's IAM, statement by statement: exactly these actions on exactly these resources.
 * {@link IndexerCallsTest} checks the indexer's side against what the code really calls.
 */
class DeployPermissionsTest {

    static final List<String> INDEXER_KEYS = List.of("${$}AppendsIndex-*", "${$}AppendsEpoch-*");
    /** The tag naming a reactor role's consumer group. */
    static final String GROUP_TAG = "appendsfeed-group";
    static final List<String> READER_KEYS = List.of("${$}ReaderCheckpoint-${aws:PrincipalTag/" + GROUP_TAG + "}_*",
            "${$}ReaderParked-${aws:PrincipalTag/" + GROUP_TAG + "}", "${$}ReaderGroups-0",
            "${$}ReaderInstances-${aws:PrincipalTag/" + GROUP_TAG + "}");
    /**
     * Whether the reactor policy lets a role with these tags write an item with this partition key:
     * its {@code Null} condition (the tag is there) and its {@code dynamodb:LeadingKeys} patterns.
     */
    static boolean reactorMayWrite(String partitionKey, Map<String, String> roleTags) {
        return roleTags.containsKey(GROUP_TAG) && IamStringLike.matchesAny(READER_KEYS, partitionKey, roleTags);
    }

    static final Set<String> INDEXER_INDEX_ACTIONS = Set.of("dynamodb:GetItem", "dynamodb:Query", "dynamodb:PutItem", "dynamodb:UpdateItem");

    private static final JsonNode INDEX_ARN = DeployTemplate.json("{\"Fn::GetAtt\":[\"IndexTable\",\"Arn\"]}");
    private static final JsonNode STORE_TABLE_ARN = DeployTemplate.json(
            "{\"Fn::Select\":[0,{\"Fn::Split\":[\"/stream/\",{\"Ref\":\"StoreStreamArn\"}]}]}");

    private final DeployTemplate template = DeployTemplate.load();

    @Test
    void indexer_role_reads_the_store_stream_and_writes_only_the_index_streams_of_the_index_table() {
        JsonNode role = template.properties("IndexerRole");
        assertThat(role.path("AssumeRolePolicyDocument").path("Statement")).isEqualTo(DeployTemplate.json(
                "[{\"Effect\":\"Allow\",\"Principal\":{\"Service\":\"lambda.amazonaws.com\"},\"Action\":\"sts:AssumeRole\"}]"));
        assertThat(role.path("ManagedPolicyArns")).as("no managed policy but X-Ray's with Tracing=Active: AWSLambdaDynamoDBExecutionRole"
                + " allows every stream").isEqualTo(DeployTemplate.XRAY_WHEN_TRACING_ACTIVE);
        assertThat(role.path("Policies")).hasSize(1);
        Map<String, JsonNode> s = template.statements(role.path("Policies").get(0).path("PolicyDocument"));
        assertThat(s).containsOnlyKeys("ReadStoreStream", "ListStoreStreams", "WriteIndexStreams", "PlaceQuietStreams",
                "SendFailedBatches", "Log");
        s.values().forEach(st -> assertThat(st.path("Effect").asText()).isEqualTo("Allow"));

        assertStatement(s.get("ReadStoreStream"), Set.of("dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator"),
                DeployTemplate.json("{\"Ref\":\"StoreStreamArn\"}"));
        assertStatement(s.get("ListStoreStreams"), Set.of("dynamodb:ListStreams"), DeployTemplate.json(
                "{\"Fn::Sub\":[\"${StoreTableArn}/stream/*\",{\"StoreTableArn\":" + STORE_TABLE_ARN + "}]}"));
        assertStatement(s.get("WriteIndexStreams"), INDEXER_INDEX_ACTIONS, INDEX_ARN);
        assertThat(leadingKeys(s.get("WriteIndexStreams"))).containsExactlyElementsOf(INDEXER_KEYS);
        // the store is only queried (rarely) to place a stream no recent epoch holds: UnknownStreamTest covers that read
        assertStatement(s.get("PlaceQuietStreams"), Set.of("dynamodb:Query"), STORE_TABLE_ARN);
        assertStatement(s.get("SendFailedBatches"), Set.of("sqs:SendMessage"), DeployTemplate.json("{\"Fn::GetAtt\":[\"FailureQueue\",\"Arn\"]}"));
        assertStatement(s.get("Log"), Set.of("logs:CreateLogStream", "logs:PutLogEvents"),
                DeployTemplate.json("{\"Fn::GetAtt\":[\"IndexerLogGroup\",\"Arn\"]}"));
    }

    @Test
    void reactor_policy_reads_both_tables_and_writes_only_its_own_groups_reader_streams_of_the_index_table() {
        JsonNode policy = template.resource("ReactorPolicy");
        assertThat(policy.path("Type").asText()).isEqualTo("AWS::IAM::ManagedPolicy");
        Map<String, JsonNode> s = template.statements(policy.path("Properties").path("PolicyDocument"));
        assertThat(s).containsOnlyKeys("ReadStore", "ReadIndex", "WriteOwnGroupStreams");
        s.values().forEach(st -> assertThat(st.path("Effect").asText()).isEqualTo("Allow"));
        assertStatement(s.get("ReadStore"), Set.of("dynamodb:BatchGetItem", "dynamodb:Query"), STORE_TABLE_ARN);
        assertStatement(s.get("ReadIndex"), Set.of("dynamodb:GetItem", "dynamodb:Query"), INDEX_ARN);
        JsonNode write = s.get("WriteOwnGroupStreams");
        assertStatement(write, Set.of("dynamodb:PutItem", "dynamodb:UpdateItem"), INDEX_ARN);
        JsonNode condition = write.path("Condition");
        assertThat(condition.size()).as("the tag must be there, and the keys its group's").isEqualTo(2);
        assertThat(condition.path("Null")).isEqualTo(DeployTemplate.json("{\"aws:PrincipalTag/" + GROUP_TAG + "\":\"false\"}"));
        assertThat(DeployTemplate.strings(condition.path("ForAllValues:StringLike").path("dynamodb:LeadingKeys")))
                .containsExactlyElementsOf(READER_KEYS);
        assertThat(template.resource("ReactorPolicy").path("Properties").has("Roles")).isFalse();
    }

    @Test
    void operator_policies_split_reading_both_tables_from_writing_the_reader_streams() {
        Map<String, JsonNode> read = template.statements(template.properties("OperatorReadPolicy").path("PolicyDocument"));
        assertThat(read).containsOnlyKeys("ReadTables");
        assertThat(DeployTemplate.strings(read.get("ReadTables").path("Action"))).containsExactlyInAnyOrder(
                "dynamodb:DescribeTable", "dynamodb:GetItem", "dynamodb:Query", "dynamodb:Scan");
        assertThat(read.get("ReadTables").path("Resource")).isEqualTo(DeployTemplate.json("[" + INDEX_ARN + "," + STORE_TABLE_ARN + "]"));
        assertThat(read.get("ReadTables").has("Condition")).isFalse();

        Map<String, JsonNode> write = template.statements(template.properties("OperatorWritePolicy").path("PolicyDocument"));
        assertThat(write).containsOnlyKeys("WriteReaderStreams");
        assertStatement(write.get("WriteReaderStreams"), Set.of("dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"), INDEX_ARN);
        // operators act for every group: the reader streams of all of them
        assertThat(leadingKeys(write.get("WriteReaderStreams"))).containsExactly(
                "${$}ReaderCheckpoint-*", "${$}ReaderParked-*", "${$}ReaderGroups-*", "${$}ReaderInstances-*");
        for (String policy : List.of("OperatorReadPolicy", "OperatorWritePolicy")) {
            assertThat(template.resource(policy).path("Type").asText()).isEqualTo("AWS::IAM::ManagedPolicy");
            template.statements(template.properties(policy).path("PolicyDocument")).values()
                    .forEach(st -> assertThat(st.path("Effect").asText()).isEqualTo("Allow"));
        }
    }

    @Test
    void a_reactor_may_write_its_own_groups_checkpoints_and_parked_streams_and_never_another_groups() {
        Map<String, String> projector = Map.of(GROUP_TAG, "projector");
        List<String> own = List.of(FeedStreams.checkpoint("projector", PartitionId.of(0)).value(),
                FeedStreams.checkpoint("projector", PartitionId.of(11)).value(), "$ReaderParked-projector", "$ReaderGroups-0");
        for (String stream : own) {
            assertThat(reactorMayWrite(stream, projector)).as(stream).isTrue();
        }
        // other groups, among them names that start like this one (group names never hold "_")
        for (String group : List.of("audit", "projector-2", "projector.v2", "proj", "projector:x")) {
            for (String stream : List.of(FeedStreams.checkpoint(group, PartitionId.of(0)).value(), "$ReaderParked-" + group)) {
                assertThat(reactorMayWrite(stream, projector)).as(stream + " to projector").isFalse();
            }
        }
        assertThat(reactorMayWrite("$ReaderGroups-1", projector)).isFalse();
        // a role without the tag writes nothing: not even the shared registry
        for (String stream : own) {
            assertThat(reactorMayWrite(stream, Map.of("team", "projector"))).as(stream).isFalse();
        }
    }

    @Test
    void leading_key_patterns_admit_each_role_its_own_streams_and_never_the_other_roles() {
        List<String> indexerStreams = List.of(FeedStreams.INDEX.value(), FeedStreams.epoch(PartitionId.of(0), EpochId.ZERO).value(),
                FeedStreams.epoch(PartitionId.of(11), EpochId.of(1234)).value());
        List<String> readerStreams = List.of(FeedStreams.checkpoint("projector", PartitionId.of(3)).value(),
                "$ReaderParked-projector", "$ReaderGroups-0");
        Map<String, String> projector = Map.of(GROUP_TAG, "projector");
        for (String stream : indexerStreams) {
            assertThat(IamStringLike.matchesAny(INDEXER_KEYS, stream)).as(stream).isTrue();
            assertThat(IamStringLike.matchesAny(READER_KEYS, stream, projector)).as(stream).isFalse();
        }
        for (String stream : readerStreams) {
            assertThat(StreamName.parse(stream).isReserved()).isTrue();
            assertThat(IamStringLike.matchesAny(READER_KEYS, stream, projector)).as(stream).isTrue();
            assertThat(IamStringLike.matchesAny(INDEXER_KEYS, stream)).as(stream).isFalse();
        }
        // an application's own streams, even one named like ours without the "$", are neither's to write
        for (String stream : List.of("Order-1", "AppendsEpoch-0_0", "ReaderCheckpoint-projector_0")) {
            assertThat(IamStringLike.matchesAny(INDEXER_KEYS, stream) || IamStringLike.matchesAny(READER_KEYS, stream, projector))
                    .as(stream).isFalse();
        }
    }

    @Test
    void function_runs_as_the_indexer_role() {
        assertThat(template.properties("IndexerFunction").path("Role"))
                .isEqualTo(DeployTemplate.json("{\"Fn::GetAtt\":[\"IndexerRole\",\"Arn\"]}"));
        assertThat(template.properties("IndexerFunction").has("Policies")).isFalse();
    }

    private static void assertStatement(JsonNode statement, Set<String> actions, JsonNode resource) {
        assertThat(DeployTemplate.strings(statement.path("Action"))).as(statement.path("Sid").asText()).containsExactlyInAnyOrderElementsOf(actions);
        assertThat(statement.path("Resource")).as(statement.path("Sid").asText()).isEqualTo(resource);
    }

    static List<String> leadingKeys(JsonNode statement) {
        JsonNode condition = statement.path("Condition");
        assertThat(condition.size()).isEqualTo(1);
        JsonNode like = condition.path("ForAllValues:StringLike");
        assertThat(like.size()).isEqualTo(1);
        return List.copyOf(DeployTemplate.strings(like.path("dynamodb:LeadingKeys")));
    }
}
