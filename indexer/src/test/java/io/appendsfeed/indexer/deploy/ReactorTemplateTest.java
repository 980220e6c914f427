package io.appendsfeed.indexer.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.StreamRecords;
import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.FeedNotification;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.lambda.ReactorHandler;
import io.appendsfeed.reader.lambda.ReactorSettings;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * {@code reader/deploy/reactor.yaml}, a Lambda reactor per consumer group, against the code it runs:
 * its settings, its queue and schedule, and its role, down to the requests a Lambda reactor really sends.
 */
@ExtendWith(LocalDynamoExtension.class)
class ReactorTemplateTest {

    static final Path FILE = Path.of("..", "reader", "deploy", "reactor.yaml");
    private final DeployTemplate template = DeployTemplate.load(FILE);
    private final JsonNode function = template.properties("ReactorFunction");

    @Test
    void environment_sets_exactly_the_variables_reactor_settings_reads_and_the_group_comes_from_the_parameter() {
        Set<String> read = new LinkedHashSet<>();
        ReactorSettings.from(name -> {
            read.add(name);
            return null;
        });
        Set<String> expected = new LinkedHashSet<>(read);
        expected.remove(ReactorSettings.REGION);
        expected.remove(ReactorSettings.ENDPOINT);
        expected.add("JAVA_TOOL_OPTIONS");
        JsonNode vars = function.path("Environment").path("Variables");
        Set<String> set = new LinkedHashSet<>();
        vars.fieldNames().forEachRemaining(set::add);
        assertThat(set).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(vars.path(ReactorSettings.GROUP)).isEqualTo(DeployTemplate.json("{\"Ref\":\"Group\"}"));
        ReactorSettings s = ReactorSettings.from(name -> vars.has(name) && vars.get(name).path("Ref").asText().equals("MarginMillis")
                ? template.resolve(vars.get(name)) : null);
        assertThat(s.margin()).isEqualTo(Duration.ofSeconds(5));
        assertThat(template.parameter("Group").path("AllowedPattern").asText()).isEqualTo("[A-Za-z0-9.:-]{1,200}");
    }

    @Test
    void notifications_come_from_a_queue_subscribed_raw_to_the_topic_with_partial_batch_responses_and_a_dead_letter_queue() {
        JsonNode sqs = function.path("Events").path("Notifications");
        assertThat(sqs.path("Type").asText()).isEqualTo("SQS");
        JsonNode p = sqs.path("Properties");
        assertThat(p.path("Queue")).isEqualTo(DeployTemplate.json("{\"Fn::GetAtt\":[\"ReactorQueue\",\"Arn\"]}"));
        assertThat(DeployTemplate.strings(p.path("FunctionResponseTypes"))).containsExactly("ReportBatchItemFailures");
        assertThat(template.resolve(p.path("ScalingConfig").path("MaximumConcurrency"))).isEqualTo("2");
        JsonNode queue = template.properties("ReactorQueue");
        // Lambda requires a visibility timeout no shorter than the function's
        assertThat(queue.path("VisibilityTimeout")).isEqualTo(function.path("Timeout"));
        assertThat(queue.path("RedrivePolicy").path("deadLetterTargetArn"))
                .isEqualTo(DeployTemplate.json("{\"Fn::GetAtt\":[\"DeadLetterQueue\",\"Arn\"]}"));
        JsonNode sub = template.properties("NotifierSubscription");
        assertThat(sub.path("Protocol").asText()).isEqualTo("sqs");
        assertThat(sub.path("RawMessageDelivery").asBoolean()).isTrue();
        assertThat(sub.path("TopicArn")).isEqualTo(DeployTemplate.json("{\"Ref\":\"NotifierTopicArn\"}"));
        JsonNode statement = template.properties("ReactorQueuePolicy").path("PolicyDocument").path("Statement").get(0);
        assertThat(statement.path("Principal").path("Service").asText()).isEqualTo("sns.amazonaws.com");
        assertThat(statement.path("Condition").path("ArnEquals").path("aws:SourceArn")).isEqualTo(DeployTemplate.json("{\"Ref\":\"NotifierTopicArn\"}"));
    }

    @Test
    void a_schedule_is_the_safety_net() {
        JsonNode schedule = function.path("Events").path("SafetyNet");
        assertThat(schedule.path("Type").asText()).isEqualTo("Schedule");
        assertThat(template.resolve(schedule.path("Properties").path("Schedule"))).isEqualTo("rate(5 minutes)");
        assertThat(function.path("Events").size()).isEqualTo(2);
    }

    @Test
    void role_reads_both_tables_and_writes_only_its_own_groups_streams() {
        Map<String, JsonNode> s = statements();
        assertThat(s).containsOnlyKeys("ReadStore", "ReadIndex", "WriteGroupStreams", "TakeNotifications", "Log");
        assertThat(DeployTemplate.strings(s.get("ReadStore").path("Action"))).containsExactly("dynamodb:BatchGetItem", "dynamodb:Query");
        assertThat(DeployTemplate.strings(s.get("ReadIndex").path("Action"))).containsExactlyInAnyOrder("dynamodb:GetItem", "dynamodb:Query");
        assertThat(DeployTemplate.strings(s.get("WriteGroupStreams").path("Action"))).containsExactlyInAnyOrder("dynamodb:PutItem", "dynamodb:UpdateItem");
        assertThat(DeployTemplate.strings(s.get("TakeNotifications").path("Action"))).containsExactlyInAnyOrder(
                "sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility", "sqs:GetQueueAttributes");
        List<String> keys = leadingKeys("projector");
        assertThat(keys).containsExactly("${$}ReaderCheckpoint-projector_*", "${$}ReaderParked-projector", "${$}ReaderGroups-0",
                "${$}ReaderInstances-projector");
        for (String own : List.of("$ReaderCheckpoint-projector_0", "$ReaderCheckpoint-projector_12", "$ReaderParked-projector", "$ReaderGroups-0")) {
            assertThat(IamStringLike.matchesAny(keys, own)).as(own).isTrue();
        }
        for (String other : List.of("$ReaderCheckpoint-mailer_0", "$ReaderCheckpoint-projector2_0", "$ReaderParked-projector2",
                "$AppendsEpoch-0_0", "$AppendsIndex-0", "Order-1")) {
            assertThat(IamStringLike.matchesAny(keys, other)).as(other).isFalse();
        }
        assertThat(function.path("Role")).isEqualTo(DeployTemplate.json("{\"Fn::GetAtt\":[\"ReactorRole\",\"Arn\"]}"));
    }

    /** The role against what a Lambda reactor sends: notified, scheduled, a stream parked, on DynamoDB Local, every request recorded. */
    @Test
    void every_request_of_a_lambda_reactor_is_granted_by_its_role(LocalDynamo local) throws Exception {
        String store = IndexerTables.store(local);
        String index = IndexerTables.index(local);
        StoreClient writer = new StoreClient(local.dynamo(), StoreConfig.builder(store).build());
        for (int k = 0; k < 9; k++) {
            writer.append(StreamName.of("Order", Integer.toString(k % 3)), Expected.any(), List.of(EventData.json("Placed", "{}")));
        }
        List<ChangeRecord> records = StreamRecords.all(local.dynamo(), local.streams(), store).stream().map(ChangeRecord::from).toList();
        assertThat(Indexer.start(local.dynamo(), IndexerConfig.builder(index).build()).ingest(records).complete()).isTrue();

        CallRecorder recorder = new CallRecorder();
        StreamName poison = StreamName.of("Order", "2");
        try (DynamoDbClient dynamo = DynamoDbClient.builder().endpointOverride(local.endpoint()).region(DynamoClients.LOCAL_REGION)
                .credentialsProvider(DynamoClients.LOCAL_CREDENTIALS).overrideConfiguration(c -> c.addExecutionInterceptor(recorder)).build()) {
            ReactorSettings settings = ReactorSettings.from(Map.of(ReactorSettings.GROUP, "projector", ReactorSettings.INDEX_TABLE, index,
                    ReactorSettings.STORE_TABLE, store, ReactorSettings.MARGIN_MILLIS, "2000")::get);
            FeedReaderConfig config = settings.configBuilder().parkAfterAttempts(1).retryBackoff(Duration.ofMillis(1), Duration.ofMillis(5)).build();
            ReactorHandler function = new ReactorHandler(dynamo, settings, config, (stream, events) -> {
                if (stream.equals(poison)) {
                    throw new IllegalStateException("fails, so that the stream is parked");
                }
                return HandlerResult.handled();
            }) {};
            com.fasterxml.jackson.databind.node.ObjectNode sqs = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
            sqs.putArray("Records").addObject().put("messageId", "m1").put("body", FeedNotification.of(0, 1).toJson())
                    .put("eventSource", "aws:sqs");
            invoke(function, sqs.toString());
            invoke(function, "{\"detail-type\":\"Scheduled Event\",\"source\":\"aws.events\",\"detail\":{}}");
        }
        List<CallRecorder.Authorisation> needed = recorder.authorisations();
        Map<String, JsonNode> s = statements();
        Set<String> onStore = needed.stream().filter(a -> a.table().equals(store)).map(CallRecorder.Authorisation::action).collect(Collectors.toSet());
        Set<String> onIndex = needed.stream().filter(a -> a.table().equals(index)).map(CallRecorder.Authorisation::action).collect(Collectors.toSet());
        assertThat(onStore).isSubsetOf(DeployTemplate.strings(s.get("ReadStore").path("Action")));
        Set<String> indexGranted = new LinkedHashSet<>(DeployTemplate.strings(s.get("ReadIndex").path("Action")));
        indexGranted.addAll(DeployTemplate.strings(s.get("WriteGroupStreams").path("Action")));
        assertThat(onIndex).isSubsetOf(indexGranted).contains("dynamodb:PutItem", "dynamodb:UpdateItem");
        List<String> keys = leadingKeys("projector");
        List<String> writes = new ArrayList<>();
        for (CallRecorder.Authorisation a : needed) {
            if (a.action().equals("dynamodb:PutItem") || a.action().equals("dynamodb:UpdateItem")) {
                assertThat(IamStringLike.matchesAny(keys, a.partitionKey())).as(a.toString()).isTrue();
                writes.add(a.partitionKey().substring(0, a.partitionKey().indexOf('-')));
            }
        }
        assertThat(writes).contains("$ReaderCheckpoint", "$ReaderParked", "$ReaderGroups", "$ReaderInstances");
    }

    private Map<String, JsonNode> statements() {
        JsonNode role = template.properties("ReactorRole");
        assertThat(role.has("ManagedPolicyArns")).isFalse();
        return template.statements(role.path("Policies").get(0).path("PolicyDocument"));
    }

    /** The LeadingKeys patterns as deployed for {@code group} (Fn::Sub resolved: "${!$}" is a literal "${$}"). */
    private List<String> leadingKeys(String group) {
        JsonNode like = statements().get("WriteGroupStreams").path("Condition").path("ForAllValues:StringLike").path("dynamodb:LeadingKeys");
        List<String> out = new ArrayList<>();
        for (JsonNode k : like) {
            String text = k.isTextual() ? k.asText() : k.path("Fn::Sub").asText().replace("${!$}", "${$}").replace("${Group}", group);
            assertThat(text).doesNotContain("${Group}").doesNotContain("${!");
            out.add(text);
        }
        return out;
    }

    private static void invoke(ReactorHandler function, String event) throws Exception {
        function.handleRequest(new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8)), new ByteArrayOutputStream(),
                new io.appendsfeed.indexer.notifier.LambdaContext(Duration.ofSeconds(20)));
    }
}
