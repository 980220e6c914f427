package io.appendsfeed.indexer.lambda;

import io.appendsfeed.indexer.settings.IndexerSettings;
import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerMetrics;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.model.metrics.EmfMetrics;
import io.appendsfeed.model.testing.EmfCapture;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.BasicMdc;
import org.slf4j.MDC;

@ExtendWith(LocalDynamoExtension.class)
class IndexerStreamHandlerMetricsTest {

    static final Instant NOW = Instant.parse("2024-11-23T08:21:00Z");

    @Test
    void each_invocation_writes_one_emf_line_with_the_batch_figures_and_the_request_id(LocalDynamo local) throws IOException {
        BasicMdc.install(); // the Lambda jar's logging binding keeps an MDC; slf4j-simple, the tests' one, does not
        String index = IndexerTables.index(local);
        EmfCapture emf = new EmfCapture();
        IndexerStreamHandler handler = new IndexerStreamHandler(Indexer.start(local.dynamo(), IndexerConfig.builder(index)
                .clock(Clock.fixed(NOW, ZoneOffset.UTC)).metrics(emf.metrics()).build()), null);

        handle(handler, "req-1");
        handle(handler, "req-2");

        List<JsonNode> lines = emf.lines();
        assertThat(lines).hasSize(2);
        JsonNode first = lines.get(0);
        // the fixture: two appends to Account-17 (3 events), an unfold-only write, a calf and a REMOVE
        assertThat(first.get(IndexerMetrics.RECORDS.name()).asInt()).isEqualTo(5);
        assertThat(first.get(IndexerMetrics.SKIPPED.name()).asInt()).isEqualTo(3);
        assertThat(first.get(IndexerMetrics.SPANS.name()).asInt()).isEqualTo(2);
        assertThat(first.get(IndexerMetrics.ACCEPTED.name()).asInt()).isEqualTo(3);
        assertThat(first.get(IndexerMetrics.RECORD_AGE.name()).asLong())
                .as("now minus the newest ApproximateCreationDateTime, 1732350004 s")
                .isEqualTo(NOW.toEpochMilli() - 1_732_350_004_000L);
        assertThat(first.get(IndexerStreamHandler.REQUEST_ID).asText()).isEqualTo("req-1");
        assertThat(first.has("shard")).as("Lambda does not say which shard").isFalse();
        assertThat(lines.get(1).get(IndexerMetrics.DUPLICATES.name()).asInt()).isEqualTo(3);
        assertThat(lines.get(1).get(IndexerStreamHandler.REQUEST_ID).asText()).isEqualTo("req-2");
        assertThat(MDC.get(IndexerStreamHandler.REQUEST_ID)).as("cleared after the invocation").isNull();
    }

    @Test
    void the_function_as_lambda_builds_it_writes_its_emf_line_to_stdout(LocalDynamo local) throws Exception {
        String index = IndexerTables.index(local);
        IndexerStreamHandler handler = new IndexerStreamHandler(LambdaSettings.from(Map.of(IndexerSettings.INDEX_TABLE, index,
                IndexerSettings.STORE_TABLE, "store" /* the fixture's records come from table "store" */, IndexerSettings.ENDPOINT, local.endpoint().toString())::get));
        PrintStream stdout = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            handle(handler, "req-3");
        } finally {
            System.setOut(stdout);
        }
        List<JsonNode> emf = new ArrayList<>();
        for (String line : captured.toString(StandardCharsets.UTF_8).split("\n")) {
            if (line.startsWith("{") && line.contains("\"_aws\"")) {
                emf.add(new ObjectMapper().readTree(line));
            }
        }
        assertThat(emf).singleElement().satisfies(line -> {
            assertThat(line.get(IndexerMetrics.ACCEPTED.name()).asInt()).isEqualTo(3);
            assertThat(line.get("feed").asText()).isEqualTo(index);
            assertThat(line.get("_aws").get("CloudWatchMetrics").get(0).get("Namespace").asText()).isEqualTo(EmfMetrics.NAMESPACE);
        });
    }

    /** An invocation with the fixture's event, as the runtime makes it. */
    private static void handle(IndexerStreamHandler handler, String requestId) throws IOException {
        handler.handleRequest(new ByteArrayInputStream(LambdaEventTest.fixture("two-appends-and-noise.json")), new ByteArrayOutputStream(),
                new RequestContext(requestId));
    }

    /** What Lambda hands the handler; only the request id matters here. */
    record RequestContext(String getAwsRequestId) implements Context {
        @Override public String getLogGroupName() { return "/aws/lambda/test"; }
        @Override public String getLogStreamName() { return "stream"; }
        @Override public String getFunctionName() { return "test"; }
        @Override public String getFunctionVersion() { return "1"; }
        @Override public String getInvokedFunctionArn() { return "arn:aws:lambda:eu-west-1:123456789012:function:test"; }
        @Override public CognitoIdentity getIdentity() { return null; }
        @Override public ClientContext getClientContext() { return null; }
        @Override public int getRemainingTimeInMillis() { return 60_000; }
        @Override public int getMemoryLimitInMB() { return 1024; }
        @Override public LambdaLogger getLogger() { return null; }
    }
}
