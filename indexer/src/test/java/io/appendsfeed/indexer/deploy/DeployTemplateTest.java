package io.appendsfeed.indexer.deploy;

import io.appendsfeed.indexer.settings.IndexerSettings;
import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.lambda.LambdaSettings;
import io.appendsfeed.indexer.settings.MetricsSettings;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The SAM template against the code it deploys: handler, settings, event source mapping, tables, queue. */
class DeployTemplateTest {

    private final DeployTemplate template = DeployTemplate.load();
    private final JsonNode function = template.properties("IndexerFunction");

    @Test
    void template_uses_only_long_form_intrinsics_so_any_yaml_parser_reads_it() {
        assertThat(Pattern.compile("(^|[\\s\\[,:])![A-Za-z]", Pattern.MULTILINE).matcher(DeployTemplate.text()).find())
                .as("a short-form tag such as !Ref in " + DeployTemplate.FILE).isFalse();
        assertThat(template.resource("IndexerFunction").path("Type").asText()).isEqualTo("AWS::Serverless::Function");
    }

    @Test
    void handler_names_a_public_stream_handler_with_a_no_arg_constructor() throws Exception {
        String[] handler = function.path("Handler").asText().split("::");
        assertThat(handler).hasSize(2);
        Class<?> type = Class.forName(handler[0]);
        assertThat(type).isEqualTo(io.appendsfeed.indexer.lambda.IndexerStreamHandler.class);
        assertThat(RequestStreamHandler.class).isAssignableFrom(type);
        assertThat(RequestHandler.class.isAssignableFrom(type)).as("one kind of handler: the runtime would pick one").isFalse();
        assertThat(Modifier.isPublic(type.getModifiers())).isTrue();
        assertThat(Modifier.isAbstract(type.getModifiers())).isFalse();
        assertThat(Modifier.isPublic(type.getConstructor().getModifiers())).isTrue();
        Method method = type.getMethod(handler[1], InputStream.class, java.io.OutputStream.class, Context.class);
        assertThat(method.getReturnType()).isEqualTo(void.class);
    }

    @Test
    void every_runtime_offered_runs_the_java_release_the_handler_is_compiled_for() throws IOException {
        assertThat(function.path("Runtime").path("Ref").asText()).isEqualTo("Runtime");
        assertThat(template.resolve(function.path("Runtime"))).isEqualTo("java21");
        for (String runtime : DeployTemplate.strings(template.parameter("Runtime").path("AllowedValues"))) {
            assertThat(runtime).matches("java\\d+");
            assertThat(Integer.parseInt(runtime.substring(4))).as(runtime).isGreaterThanOrEqualTo(17);
        }
        try (InputStream in = getClass().getResourceAsStream("/io/appendsfeed/indexer/lambda/IndexerStreamHandler.class");
             DataInputStream data = new DataInputStream(in)) {
            assertThat(data.readInt()).isEqualTo(0xCAFEBABE);
            data.readUnsignedShort();
            assertThat(data.readUnsignedShort()).as("class file major version (61 = Java 17)").isEqualTo(61);
        }
    }

    @Test
    void code_uri_is_the_attached_lambda_jar_of_this_version_in_the_template_the_build_writes() throws IOException {
        String version = System.getProperty("project.version");
        assertThat(version).as("project.version, set by the build (surefire systemPropertyVariables)").isNotBlank();
        assertThat(function.path("CodeUri").asText()).as("the source names no version")
                .isEqualTo("../appendsfeed-indexer-@project.version@-lambda.jar");
        assertThat(DeployTemplate.text()).doesNotContain("SNAPSHOT");

        DeployTemplate built = DeployTemplate.load(DeployTemplate.BUILT);
        String codeUri = built.properties("IndexerFunction").path("CodeUri").asText();
        assertThat(codeUri).isEqualTo("../appendsfeed-indexer-" + version + "-lambda.jar");
        assertThat(DeployTemplate.BUILT.getParent().resolve(codeUri).normalize())
                .as("the jar the same build attaches, next to the built template")
                .isEqualTo(java.nio.file.Path.of("target", "appendsfeed-indexer-" + version + "-lambda.jar"));
        assertThat(built.properties("NotifierFunction").path("CodeUri").asText()).isEqualTo(codeUri);
        // nothing else filtered: CloudFormation's ${...} and IAM's ${$} are the source's
        assertThat(java.nio.file.Files.readString(DeployTemplate.BUILT).replace(version, "@project.version@"))
                .isEqualTo(DeployTemplate.text());
    }

    @Test
    void tracing_is_a_parameter_of_both_functions_and_active_tracing_may_write_to_xray() {
        assertThat(DeployTemplate.strings(template.parameter("Tracing").path("AllowedValues"))).containsExactly("Active", "PassThrough");
        assertThat(template.parameter("Tracing").path("Default").asText()).isEqualTo("PassThrough");
        for (String fn : new String[] {"IndexerFunction", "NotifierFunction"}) {
            assertThat(template.properties(fn).path("Tracing")).as(fn).isEqualTo(DeployTemplate.json("{\"Ref\":\"Tracing\"}"));
        }
        assertThat(template.condition("TracingActive")).isEqualTo(DeployTemplate.json("{\"Fn::Equals\":[{\"Ref\":\"Tracing\"},\"Active\"]}"));
        for (String role : new String[] {"IndexerRole", "NotifierRole"}) {
            assertThat(template.properties(role).path("ManagedPolicyArns")).as(role).isEqualTo(DeployTemplate.XRAY_WHEN_TRACING_ACTIVE);
        }
    }

    @Test
    void every_resource_that_takes_tags_is_tagged_with_its_stack_and_component() {
        for (String r : new String[] {"IndexTable", "FailureQueue", "IndexerLogGroup", "IndexerRole", "NotifierTopic",
            "NotifierLogGroup", "NotifierRole"}) {
            Map<String, JsonNode> tags = new java.util.HashMap<>();
            template.properties(r).path("Tags").forEach(t -> tags.put(t.path("Key").asText(), t.path("Value")));
            assertThat(tags).as(r).containsOnlyKeys("appendsfeed:stack", "appendsfeed:component");
            assertThat(tags.get("appendsfeed:stack")).as(r).isEqualTo(DeployTemplate.json("{\"Ref\":\"AWS::StackName\"}"));
        }
        for (String fn : new String[] {"IndexerFunction", "NotifierFunction"}) {
            JsonNode tags = template.properties(fn).path("Tags"); // SAM: a map
            assertThat(tags.path("appendsfeed:stack")).as(fn).isEqualTo(DeployTemplate.json("{\"Ref\":\"AWS::StackName\"}"));
            assertThat(tags.path("appendsfeed:component").asText()).as(fn).isNotBlank();
        }
    }

    @Test
    void the_failure_queue_outlives_the_stack_and_the_log_groups_go_with_it() {
        assertThat(template.resource("FailureQueue").path("DeletionPolicy").asText()).isEqualTo("Retain");
        assertThat(template.resource("FailureQueue").path("UpdateReplacePolicy").asText()).isEqualTo("Retain");
        for (String group : new String[] {"IndexerLogGroup", "NotifierLogGroup"}) {
            assertThat(template.resource(group).path("DeletionPolicy").asText()).as(group).isEqualTo("Delete");
            assertThat(template.resource(group).path("UpdateReplacePolicy").asText()).as(group).isEqualTo("Delete");
        }
    }

    @Test
    void the_iterator_age_alarm_defaults_to_the_readmes_recommendation() throws IOException {
        long thresholdMillis = template.parameter("IteratorAgeAlarmSeconds").path("Default").asLong() * 1000;
        assertThat(thresholdMillis).isEqualTo(60_000);
        assertThat(java.nio.file.Files.readString(java.nio.file.Path.of("README.md")))
                .as("indexer README, Alarms we recommend").contains("`IteratorAge` | Maximum > 60,000 ms");
        assertThat(java.nio.file.Files.readString(java.nio.file.Path.of("..", "README.md")))
                .as("README, Metrics, alarms and logs").contains("`IteratorAge`, Maximum > 1 min");
    }

    @Test
    void environment_sets_exactly_the_variables_lambda_settings_reads() {
        Set<String> read = new LinkedHashSet<>();
        LambdaSettings.from(name -> {
            read.add(name);
            return name.equals(IndexerSettings.INDEX_TABLE) ? "index" : null;
        });
        // AWS_REGION is set by Lambda itself and may not be set by a template
        Set<String> expected = new LinkedHashSet<>(read);
        expected.remove(IndexerSettings.REGION);
        // the metrics settings are set under Powertools' names; ours are their overrides
        expected.removeAll(Set.of(MetricsSettings.METRICS, MetricsSettings.NAMESPACE, MetricsSettings.SERVICE_NAME));
        // the one variable for the JVM rather than for us: its flags (tiered compilation)
        expected.add("JAVA_TOOL_OPTIONS");

        Set<String> set = new LinkedHashSet<>();
        function.path("Environment").path("Variables").fieldNames().forEachRemaining(set::add);
        assertThat(set).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(read).contains(IndexerSettings.REGION);
    }

    @Test
    void environment_defaults_are_settings_lambda_settings_accepts() {
        JsonNode vars = function.path("Environment").path("Variables");
        Map<String, String> stream = Map.of("StoreStreamArn",
                "arn:aws:dynamodb:eu-west-1:123456789012:table/orders-store/stream/2026-01-01T00:00:00.000");
        LambdaSettings settings = LambdaSettings.from(name -> vars.has(name) ? template.resolve(vars.get(name), stream) : null);
        assertThat(settings.storeTable()).as("the table of the mapped stream").isEqualTo("orders-store");
        assertThat(settings.config().partitions()).isEqualTo(1);
        assertThat(settings.config().limits().maxEvents()).isEqualTo(999_999);
        assertThat(settings.config().allowGaps()).isFalse();
        assertThat(settings.config().conflictBackoff()).isEqualTo(IndexerConfig.DEFAULT_CONFLICT_BACKOFF);
        assertThat(template.parameter("ConflictBackoffMillis").path("MaxValue").asLong())
                .as("the most the settings take").isEqualTo(IndexerConfig.MAX_CONFLICT_BACKOFF.toMillis());
        assertThat(settings.dynamo().endpoint()).isEmpty();
        assertThat(vars.path(IndexerSettings.INDEX_TABLE).path("Ref").asText()).isEqualTo("IndexTable");
        assertThat(settings.config().indexTable()).isEqualTo("appendsfeed-index");
        assertThat(settings.metrics()).isEqualTo(MetricsSettings.DEFAULT);
        LambdaSettings named = LambdaSettings.from(name -> vars.has(name) ? template.resolve(vars.get(name),
                Map.of("StoreStreamArn", stream.get("StoreStreamArn"), "MetricsNamespace", "orders", "ServiceName", "orders-indexer")) : null);
        assertThat(named.metrics()).isEqualTo(new MetricsSettings(true, "orders", "orders-indexer"));
        LambdaSettings off = LambdaSettings.from(name -> vars.has(name) ? template.resolve(vars.get(name),
                Map.of("StoreStreamArn", stream.get("StoreStreamArn"), "MetricsDisabled", "true")) : null);
        assertThat(off.metrics().enabled()).isFalse();
    }

    @Test
    void event_source_mapping_keeps_shard_order_and_never_drops_a_record_silently() {
        JsonNode events = function.path("Events");
        assertThat(events.size()).isEqualTo(2);
        JsonNode esm = events.path("StoreStream");
        assertThat(esm.path("Type").asText()).isEqualTo("DynamoDB");
        JsonNode p = esm.path("Properties");
        assertThat(p.path("Stream").path("Ref").asText()).isEqualTo("StoreStreamArn");
        assertThat(p.path("StartingPosition").asText()).isEqualTo("TRIM_HORIZON");
        assertThat(p.path("ParallelizationFactor").asInt()).isEqualTo(1);
        assertThat(DeployTemplate.strings(p.path("FunctionResponseTypes"))).containsExactly("ReportBatchItemFailures");
        assertThat(p.path("BisectBatchOnFunctionError").asBoolean()).isTrue();
        assertThat(p.path("MaximumRecordAgeInSeconds").asInt()).isEqualTo(-1);
        // finite retries (-1, retry forever, would block the shard behind a poison record)
        assertThat(template.resolve(p.path("MaximumRetryAttempts"))).isEqualTo("10");
        assertThat(template.parameter("MaximumRetryAttempts").path("MinValue").asInt()).isZero();
        assertThat(template.resolve(p.path("BatchSize"))).isNotBlank();
        assertThat(template.resolve(p.path("MaximumBatchingWindowInSeconds"))).isNotBlank();
        // ...so a batch given up on goes to the queue, which keeps it as long as SQS can
        JsonNode onFailure = p.path("DestinationConfig").path("OnFailure");
        assertThat(onFailure.path("Type").asText()).isEqualTo("SQS");
        assertThat(DeployTemplate.strings(onFailure.path("Destination").path("Fn::GetAtt"))).containsExactly("FailureQueue", "Arn");
        assertThat(template.resource("FailureQueue").path("Type").asText()).isEqualTo("AWS::SQS::Queue");
        assertThat(template.properties("FailureQueue").path("MessageRetentionPeriod").asInt()).isEqualTo(14 * 24 * 3600);
    }

    @Test
    void a_full_batch_lets_the_tips_lag_and_a_schedule_moves_them_every_minute() {
        JsonNode vars = function.path("Environment").path("Variables");
        assertThat(vars.path(IndexerSettings.LAMBDA_BATCH_SIZE).path("Ref").asText())
                .as("the mapping's own batch size").isEqualTo(function.path("Events").path("StoreStream").path("Properties")
                        .path("BatchSize").path("Ref").asText());
        JsonNode schedule = function.path("Events").path("TipSchedule");
        assertThat(schedule.path("Type").asText()).isEqualTo("Schedule");
        assertThat(schedule.path("Properties").path("Schedule").asText()).isEqualTo("rate(1 minute)");
    }

    @Test
    void index_table_is_the_store_format_on_demand_with_point_in_time_recovery_and_outlives_the_stack() {
        JsonNode table = template.resource("IndexTable");
        assertThat(table.path("Type").asText()).isEqualTo("AWS::DynamoDB::Table");
        assertThat(table.path("DeletionPolicy").asText()).isEqualTo("Retain");
        assertThat(table.path("UpdateReplacePolicy").asText()).isEqualTo("Retain");
        JsonNode p = table.path("Properties");
        assertThat(p.path("BillingMode").asText()).isEqualTo("PAY_PER_REQUEST");
        assertThat(p.path("PointInTimeRecoverySpecification").path("PointInTimeRecoveryEnabled").asBoolean()).isTrue();
        assertThat(p.path("KeySchema")).isEqualTo(DeployTemplate.json(
                "[{\"AttributeName\":\"p\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"i\",\"KeyType\":\"RANGE\"}]"));
        assertThat(p.path("AttributeDefinitions")).isEqualTo(DeployTemplate.json(
                "[{\"AttributeName\":\"p\",\"AttributeType\":\"S\"},{\"AttributeName\":\"i\",\"AttributeType\":\"N\"}]"));
        // its own stream only for the notifier (NotifierTemplateTest)
        assertThat(p.path("StreamSpecification")).isEqualTo(DeployTemplate.json(
                "{\"Fn::If\":[\"NotifierEnabled\",{\"StreamViewType\":\"NEW_IMAGE\"},{\"Ref\":\"AWS::NoValue\"}]}"));
    }

    @Test
    void index_table_cannot_be_deleted_by_accident() {
        assertThat(template.properties("IndexTable").path("DeletionProtectionEnabled").asBoolean()).isTrue();
    }

    @Test
    void function_name_is_never_longer_than_lambda_allows_whatever_the_stack_name() {
        JsonNode name = template.parameter("FunctionName");
        assertThat(name.path("Default").asText()).isEmpty();
        assertThat(name.path("MaxLength").asInt()).isEqualTo(64);
        // an empty name is left to CloudFormation, which shortens a long stack name to fit
        assertThat(function.path("FunctionName")).isEqualTo(DeployTemplate.json(
                "{\"Fn::If\":[\"HasFunctionName\",{\"Ref\":\"FunctionName\"},{\"Ref\":\"AWS::NoValue\"}]}"));
        assertThat(DeployTemplate.text()).doesNotContain("${AWS::StackName}-indexer\"\n      Description");
        // the log group does not depend on the function's name: the function is pointed at it
        assertThat(function.path("LoggingConfig").path("LogGroup")).isEqualTo(DeployTemplate.json("{\"Ref\":\"IndexerLogGroup\"}"));
    }

    @Test
    void logs_are_json_through_lambda_logging_in_the_lambda_jar() throws IOException {
        JsonNode logging = function.path("LoggingConfig");
        assertThat(logging.path("LogFormat").asText()).isEqualTo("JSON");
        assertThat(logging.path("ApplicationLogLevel").asText()).isEqualTo("INFO");
        // the binding that writes through LambdaLogger, which the JSON format turns into JSON objects
        assertThat(java.nio.file.Files.readString(java.nio.file.Path.of("deploy", "slf4j-provider")).lines()
                .filter(l -> !l.startsWith("#") && !l.isBlank()).toList())
                .containsExactly(io.appendsfeed.indexer.lambda.logging.LambdaLoggingProvider.class.getName());
    }

    @Test
    void alarms_watch_the_function_and_the_failure_queue_and_notify_the_optional_topic() {
        JsonNode topicActions = DeployTemplate.json(
                "{\"Fn::If\":[\"HasAlarmTopic\",[{\"Ref\":\"AlarmTopicArn\"}],{\"Ref\":\"AWS::NoValue\"}]}");
        assertThat(template.parameter("AlarmTopicArn").path("Default").asText()).isEmpty();
        JsonNode functionDimension = DeployTemplate.json("[{\"Name\":\"FunctionName\",\"Value\":{\"Ref\":\"IndexerFunction\"}}]");

        JsonNode age = template.properties("IteratorAgeAlarm");
        assertThat(age.path("Namespace").asText()).isEqualTo("AWS/Lambda");
        assertThat(age.path("MetricName").asText()).isEqualTo("IteratorAge");
        assertThat(age.path("Dimensions")).isEqualTo(functionDimension);
        assertThat(age.path("Statistic").asText()).isEqualTo("Maximum");
        assertThat(age.path("Threshold")).isEqualTo(DeployTemplate.json("{\"Fn::Sub\":\"${IteratorAgeAlarmSeconds}000\"}"));
        assertThat(template.parameter("IteratorAgeAlarmSeconds").path("MaxValue").asInt())
                .as("alarms before Streams drops records (24 h)").isLessThanOrEqualTo(86_400);

        JsonNode errors = template.properties("ErrorsAlarm");
        assertThat(errors.path("MetricName").asText()).isEqualTo("Errors");
        assertThat(errors.path("Dimensions")).isEqualTo(functionDimension);
        assertThat(errors.path("Threshold").asInt()).isZero();
        assertThat(errors.path("ComparisonOperator").asText()).isEqualTo("GreaterThanThreshold");

        JsonNode queue = template.properties("FailureQueueAlarm");
        assertThat(queue.path("Namespace").asText()).isEqualTo("AWS/SQS");
        assertThat(queue.path("MetricName").asText()).isEqualTo("ApproximateNumberOfMessagesVisible");
        assertThat(queue.path("Dimensions")).isEqualTo(DeployTemplate.json(
                "[{\"Name\":\"QueueName\",\"Value\":{\"Fn::GetAtt\":[\"FailureQueue\",\"QueueName\"]}}]"));
        assertThat(queue.path("Threshold").asInt()).as("above 0: any batch given up on").isZero();
        assertThat(queue.path("ComparisonOperator").asText()).isEqualTo("GreaterThanThreshold");

        for (String alarm : new String[] {"IteratorAgeAlarm", "ErrorsAlarm", "FailureQueueAlarm"}) {
            assertThat(template.resource(alarm).path("Type").asText()).isEqualTo("AWS::CloudWatch::Alarm");
            assertThat(template.properties(alarm).path("AlarmActions")).as(alarm).isEqualTo(topicActions);
            assertThat(template.properties(alarm).path("TreatMissingData").asText()).as(alarm).isEqualTo("notBreaching");
        }
    }
}
