package io.appendsfeed.indexer.lambda.logging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.BasicMdc;
import org.slf4j.Logger;
import org.slf4j.MDC;
import org.slf4j.event.Level;

class LambdaLoggerTest {

    record Line(String text, Level level) {}

    final List<Line> lines = new ArrayList<>();
    final LambdaLoggingProvider.Sink sink = (bytes, level) -> lines.add(new Line(new String(bytes, StandardCharsets.UTF_8), level));

    @AfterEach
    void clear() {
        MDC.clear();
    }

    @Test
    void json_format_writes_one_object_per_line_with_the_request_id_and_the_context_as_fields() throws Exception {
        BasicMdc.install();
        Logger log = LambdaLoggingProvider.loggers(Map.of("AWS_LAMBDA_LOG_FORMAT", "JSON")::get, sink)
                .getLogger("io.appendsfeed.indexer.Indexer");
        MDC.put("AWSRequestId", "8f5e-req");
        MDC.put("shard", "shardId-0001");
        log.info("batch: {} records, {} skipped", 10, 2);
        log.debug("not written at INFO");
        log.warn("failed", new IllegalStateException("epoch conflict"));

        assertThat(lines).hasSize(2);
        assertThat(lines.get(0).level()).isEqualTo(Level.INFO);
        assertThat(lines.get(0).text()).endsWith("}\n").doesNotContain("\n{");
        JsonNode info = new ObjectMapper().readTree(lines.get(0).text());
        assertThat(info.get("message").asText()).isEqualTo("batch: 10 records, 2 skipped");
        assertThat(info.get("level").asText()).isEqualTo("INFO");
        assertThat(info.get("logger").asText()).isEqualTo("io.appendsfeed.indexer.Indexer");
        assertThat(info.get("AWSRequestId").asText()).isEqualTo("8f5e-req");
        assertThat(info.get("shard").asText()).isEqualTo("shardId-0001");
        assertThat(info.get("timestamp").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
        JsonNode warn = new ObjectMapper().readTree(lines.get(1).text());
        assertThat(warn.get("errorType").asText()).isEqualTo(IllegalStateException.class.getName());
        assertThat(warn.get("errorMessage").asText()).isEqualTo("epoch conflict");
        assertThat(warn.get("stackTrace").get(0).asText()).startsWith("java.lang.IllegalStateException: epoch conflict");
        assertThat(lines.get(1).level()).isEqualTo(Level.WARN);
    }

    @Test
    void a_text_log_group_gets_the_same_json_line() throws Exception {
        BasicMdc.install();
        Logger log = LambdaLoggingProvider.loggers(Map.of("AWS_LAMBDA_LOG_FORMAT", "Text")::get, sink)
                .getLogger("io.appendsfeed.indexer.Indexer");
        MDC.put("AWSRequestId", "r1");
        log.error("stopped", new IllegalArgumentException("bad"));
        assertThat(lines).singleElement().satisfies(l -> {
            assertThat(l.text()).endsWith("}\n").doesNotContain("\n{");
            assertThat(l.level()).isEqualTo(Level.ERROR);
        });
        JsonNode error = new ObjectMapper().readTree(lines.get(0).text());
        assertThat(error.get("message").asText()).isEqualTo("stopped");
        assertThat(error.get("AWSRequestId").asText()).isEqualTo("r1");
        assertThat(error.get("stackTrace").get(0).asText()).startsWith("java.lang.IllegalArgumentException: bad");
    }

    @Test
    void the_application_log_level_is_honoured_and_the_sdk_stays_at_warn() {
        org.slf4j.ILoggerFactory debug = LambdaLoggingProvider.loggers(Map.of("AWS_LAMBDA_LOG_LEVEL", "DEBUG")::get, sink);
        assertThat(debug.getLogger("io.appendsfeed.indexer.Indexer").isDebugEnabled()).isTrue();
        assertThat(debug.getLogger("software.amazon.awssdk.request").isInfoEnabled()).isFalse();
        assertThat(debug.getLogger("org.apache.http.wire").isWarnEnabled()).isTrue();
        org.slf4j.ILoggerFactory error = LambdaLoggingProvider.loggers(Map.of("AWS_LAMBDA_LOG_LEVEL", "error")::get, sink);
        assertThat(error.getLogger("x").isWarnEnabled()).isFalse();
        assertThat(error.getLogger("x").isErrorEnabled()).isTrue();
        error.getLogger("x").warn("dropped");
        assertThat(lines).isEmpty();
    }
}
