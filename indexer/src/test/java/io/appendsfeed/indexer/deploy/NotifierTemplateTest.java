package io.appendsfeed.indexer.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.model.feed.AppendsEpoch.EpochLimits;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.StreamRecords;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.notifier.NotifierHandler;
import io.appendsfeed.indexer.notifier.NotifierSettings;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreTables;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.event.ruler.Machine;

/** The template's optional notifier against the code it deploys, its filter evaluated on real index stream records. */
@ExtendWith(LocalDynamoExtension.class)
class NotifierTemplateTest {

    private static final String ENABLED = "NotifierEnabled";
    private final DeployTemplate template = DeployTemplate.load();
    private final JsonNode function = template.properties("NotifierFunction");

    @Test
    void the_notifier_is_off_by_default_and_all_of_it_hangs_on_one_condition() {
        assertThat(template.resolve(DeployTemplate.json("{\"Ref\":\"Notifier\"}"))).isEqualTo("Disabled");
        assertThat(DeployTemplate.strings(template.parameter("Notifier").path("AllowedValues"))).containsExactly("Enabled", "Disabled");
        for (String r : List.of("NotifierTopic", "NotifierLogGroup", "NotifierRole", "NotifierFunction")) {
            assertThat(template.resource(r).path("Condition").asText()).as(r).isEqualTo(ENABLED);
        }
        assertThat(template.resource("NotifierTopic").path("Type").asText()).isEqualTo("AWS::SNS::Topic");
    }

    @Test
    void handler_names_a_public_stream_handler_with_a_no_arg_constructor() throws Exception {
        String[] handler = function.path("Handler").asText().split("::");
        Class<?> type = Class.forName(handler[0]);
        assertThat(type).isEqualTo(NotifierHandler.class);
        assertThat(RequestStreamHandler.class).isAssignableFrom(type);
        assertThat(Modifier.isPublic(type.getConstructor().getModifiers())).isTrue();
        assertThat(type.getMethod(handler[1], java.io.InputStream.class, java.io.OutputStream.class, Context.class)).isNotNull();
        assertThat(function.path("CodeUri").asText()).isEqualTo(template.properties("IndexerFunction").path("CodeUri").asText());
    }

    @Test
    void environment_sets_exactly_the_variables_notifier_settings_reads() {
        Set<String> read = new LinkedHashSet<>();
        NotifierSettings.from(name -> {
            read.add(name);
            return name.equals(NotifierSettings.TOPIC_ARN) ? "arn:aws:sns:eu-west-1:123456789012:t" : null;
        });
        Set<String> expected = new LinkedHashSet<>(read);
        expected.remove(NotifierSettings.REGION);      // set by Lambda
        expected.remove(NotifierSettings.ENDPOINT);    // only off AWS (LocalStack)
        expected.add("JAVA_TOOL_OPTIONS");
        Set<String> set = new LinkedHashSet<>();
        function.path("Environment").path("Variables").fieldNames().forEachRemaining(set::add);
        assertThat(set).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(function.path("Environment").path("Variables").path(NotifierSettings.TOPIC_ARN))
                .isEqualTo(DeployTemplate.json("{\"Ref\":\"NotifierTopic\"}"));
    }

    @Test
    void the_mapping_reads_the_index_tables_own_stream_and_never_blocks_on_a_bad_batch() {
        JsonNode events = function.path("Events");
        assertThat(events.size()).isEqualTo(1);
        JsonNode p = events.path("IndexStream").path("Properties");
        assertThat(events.path("IndexStream").path("Type").asText()).isEqualTo("DynamoDB");
        assertThat(p.path("Stream")).isEqualTo(DeployTemplate.json("{\"Fn::GetAtt\":[\"IndexTable\",\"StreamArn\"]}"));
        assertThat(p.path("StartingPosition").asText()).isEqualTo("LATEST");
        assertThat(p.path("MaximumRetryAttempts").asInt()).isBetween(0, 10);
        assertThat(p.path("MaximumRecordAgeInSeconds").asInt()).isBetween(60, 3600);
        assertThat(p.path("FunctionResponseTypes").isMissingNode()).as("all or nothing: no partial batch response").isTrue();
    }

    @Test
    void role_reads_the_index_stream_and_publishes_to_the_topic_only() {
        JsonNode role = template.properties("NotifierRole");
        assertThat(role.path("ManagedPolicyArns")).as("X-Ray's only, with Tracing=Active").isEqualTo(DeployTemplate.XRAY_WHEN_TRACING_ACTIVE);
        Map<String, JsonNode> s = template.statements(role.path("Policies").get(0).path("PolicyDocument"));
        assertThat(s).containsOnlyKeys("ReadIndexStream", "ListIndexStreams", "Publish", "Log");
        assertThat(DeployTemplate.strings(s.get("ReadIndexStream").path("Action")))
                .containsExactlyInAnyOrder("dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator");
        assertThat(s.get("ReadIndexStream").path("Resource")).isEqualTo(DeployTemplate.json("{\"Fn::GetAtt\":[\"IndexTable\",\"StreamArn\"]}"));
        assertThat(DeployTemplate.strings(s.get("ListIndexStreams").path("Action"))).containsExactly("dynamodb:ListStreams");
        assertThat(DeployTemplate.strings(s.get("Publish").path("Action"))).containsExactly("sns:Publish");
        assertThat(s.get("Publish").path("Resource")).isEqualTo(DeployTemplate.json("{\"Ref\":\"NotifierTopic\"}"));
        assertThat(function.path("Role")).isEqualTo(DeployTemplate.json("{\"Fn::GetAtt\":[\"NotifierRole\",\"Arn\"]}"));
    }

    /**
     * The mapping's filter, evaluated by Event Ruler (the engine of EventBridge patterns and Lambda's
     * event filters) on each record of the index table's real stream: an indexer's epoch Tip writes
     * pass; calves, the index stream, the poller-free reader's commits, leases and group registration do not.
     */
    @Test
    void the_filter_lets_through_epoch_tip_writes_and_nothing_else(LocalDynamo local) throws Exception {
        String store = IndexerTables.store(local);
        String index = local.freshTableName("index");
        StoreTables.ensure(local.dynamo(), index, StreamViewType.NEW_IMAGE);
        StoreClient writer = new StoreClient(local.dynamo(), StoreConfig.builder(store).build());
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(index).limits(new EpochLimits(5, 1 << 20, 1000)).build());
        for (int round = 0; round < 8; round++) {
            int r = round;
            for (int k = 0; k < 4; k++) {
                writer.append(StreamName.of("Order", r + "-" + k), Expected.any(), List.of(EventData.json("Placed", "{}")));
            }
            List<Record> all = StreamRecords.all(local.dynamo(), local.streams(), store);
            indexer.ingest(all.subList(r * 4, all.size()).stream().map(ChangeRecord::from).toList());
        }
        try (FeedReader reader = new FeedReader(local.dynamo(), FeedReaderConfig.builder("filtered", index, store).loadBodies(false).build(),
                (s, e) -> HandlerResult.handled())) {
            assertThat(reader.runUntilCaughtUp(Duration.ofSeconds(30)).caughtUp()).isTrue();
        }
        List<Record> records = StreamRecords.all(local.dynamo(), local.streams(), index);
        Machine filter = new Machine();
        JsonNode pattern = function.path("Events").path("IndexStream").path("Properties").path("FilterCriteria").path("Filters");
        assertThat(pattern).hasSize(1);
        filter.addRule("notifier", pattern.get(0).path("Pattern").asText());

        String arn = local.dynamo().describeTable(b -> b.tableName(index)).table().latestStreamArn();
        JsonNode rendered = AwsEventJson.event(records, arn).path("Records");
        Set<String> passed = new LinkedHashSet<>();
        Set<String> stopped = new LinkedHashSet<>();
        for (JsonNode record : rendered) {
            String key = record.path("dynamodb").path("Keys").path("p").path("S").asText() + " i="
                    + record.path("dynamodb").path("Keys").path("i").path("N").asText();
            boolean epochTip = key.startsWith("$AppendsEpoch-") && key.endsWith("i=2147483647");
            boolean matched = !filter.rulesForJSONEvent(record.toString()).isEmpty();
            assertThat(matched).as(key).isEqualTo(epochTip);
            (matched ? passed : stopped).add(key.replaceAll("-.*? ", " ").replaceAll("i=\\d+", epochTip ? "tip" : "calf-or-tip"));
        }
        assertThat(passed).containsExactly("$AppendsEpoch tip");
        assertThat(String.join(",", stopped)).contains("$AppendsIndex", "$ReaderCheckpoint", "$ReaderGroups");
        boolean calved = false;
        for (JsonNode r : rendered) {
            calved |= r.path("dynamodb").path("Keys").path("p").path("S").asText().startsWith("$AppendsEpoch-")
                    && !r.path("dynamodb").path("Keys").path("i").path("N").asText().equals("2147483647");
        }
        assertThat(calved).as("epoch calves were written (each write is one, calf-first) and stopped above").isTrue();
    }
}
