package io.appendsfeed.model.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.BasicMdc;
import org.slf4j.MDC;

class EmfMetricsTest {

    static final Metric EVENTS = Metric.counter("test.events", Metric.Unit.COUNT, "events");
    static final Metric LAG = Metric.gauge("test.lag", Metric.Unit.COUNT, "lag");
    static final Metric TIME = Metric.timer("test.time", "time");
    static final Metric RCU = Metric.counter("test.rcu", Metric.Unit.CAPACITY_UNITS, "rcu");

    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final EmfMetrics emf = new EmfMetrics(new PrintStream(bytes, true, StandardCharsets.UTF_8), "ns", Map.of("service", "orders"));

    @Test
    void one_line_per_dimension_set_at_flush_with_counters_summed_gauges_latest_and_timers_listed() throws Exception {
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        emf.record(Sample.at(t0).dimension("group", "g").dimension("partition", "0")
                .value(EVENTS, 3).value(LAG, 10).value(TIME, 12.5).value(RCU, 0.5).build());
        emf.record(Sample.at(t0.plusSeconds(1)).dimension("group", "g").dimension("partition", "0")
                .value(EVENTS, 4).value(LAG, 7).value(TIME, 2).value(RCU, 1.5).build());
        emf.record(Sample.at(t0).dimension("group", "g").dimension("partition", "1").value(EVENTS, 1).build());
        assertThat(bytes.size()).as("nothing is written before the flush").isZero();

        emf.flush();
        List<JsonNode> lines = lines();
        assertThat(lines).hasSize(2);
        JsonNode p0 = lines.get(0);
        assertThat(p0.get("test.events").asDouble()).isEqualTo(7);
        assertThat(p0.get("test.lag").asDouble()).isEqualTo(7);
        assertThat(p0.get("test.rcu").asDouble()).isEqualTo(2.0);
        assertThat(p0.get("test.time").isArray()).isTrue();
        assertThat(p0.get("test.time").get(0).asDouble()).isEqualTo(12.5);
        assertThat(p0.get("test.time").get(1).asDouble()).isEqualTo(2.0);
        assertThat(p0.get("service").asText()).isEqualTo("orders");
        assertThat(p0.get("group").asText()).isEqualTo("g");
        assertThat(p0.get("partition").asText()).isEqualTo("0");
        JsonNode aws = p0.get("_aws");
        assertThat(aws.get("Timestamp").asLong()).isEqualTo(t0.plusSeconds(1).toEpochMilli());
        JsonNode directive = aws.get("CloudWatchMetrics").get(0);
        assertThat(directive.get("Namespace").asText()).isEqualTo("ns");
        assertThat(directive.get("Dimensions").toString()).isEqualTo("[[\"service\",\"group\",\"partition\"],[\"service\",\"group\"]]");
        assertThat(directive.get("Metrics").toString()).isEqualTo("[{\"Name\":\"test.events\",\"Unit\":\"Count\"},"
                + "{\"Name\":\"test.lag\",\"Unit\":\"Count\"},{\"Name\":\"test.time\",\"Unit\":\"Milliseconds\"},"
                + "{\"Name\":\"test.rcu\",\"Unit\":\"Count\"}]");
        assertThat(lines.get(1).get("partition").asText()).isEqualTo("1");
        assertThat(lines.get(1).get("test.events").asDouble()).isEqualTo(1);

        bytes.reset();
        emf.flush();
        assertThat(bytes.size()).as("a flush with nothing recorded writes nothing").isZero();
    }

    @Test
    void a_timer_with_a_full_list_is_written_at_once_so_no_duration_is_lost() throws Exception {
        for (int k = 0; k < EmfMetrics.MAX_VALUES + 1; k++) {
            emf.record(Sample.at(Instant.EPOCH).value(TIME, k).value(EVENTS, 1).build());
        }
        List<JsonNode> before = lines();
        assertThat(before).hasSize(1);
        assertThat(before.get(0).get("test.time")).hasSize(EmfMetrics.MAX_VALUES);
        assertThat(before.get(0).get("test.events").asDouble()).isEqualTo(EmfMetrics.MAX_VALUES);
        bytes.reset();
        emf.flush();
        JsonNode rest = lines().get(0);
        assertThat(rest.get("test.time").asDouble()).isEqualTo(EmfMetrics.MAX_VALUES);
        assertThat(rest.get("test.events").asDouble()).isEqualTo(1);
    }

    @Test
    void mdc_entries_are_added_as_members_without_overriding_figures_or_dimensions() throws Exception {
        BasicMdc.install();
        MDC.put("AWSRequestId", "req-1");
        MDC.put("service", "not-this");
        try {
            emf.record(Sample.at(Instant.EPOCH).value(EVENTS, 1).build());
            emf.flush();
        } finally {
            MDC.clear();
        }
        JsonNode line = lines().get(0);
        assertThat(line.get("AWSRequestId").asText()).isEqualTo("req-1");
        assertThat(line.get("service").asText()).isEqualTo("orders");
        assertThat(line.get("_aws").get("CloudWatchMetrics").get(0).get("Dimensions").toString()).isEqualTo("[[\"service\"]]");
    }

    @Test
    void samples_and_metrics_refuse_what_cloudwatch_would_not_take() {
        assertThatThrownBy(() -> Metric.counter("Indexer Records", Metric.Unit.COUNT, "x"))
                .hasMessageContaining("lower case words separated by dots");
        assertThatThrownBy(() -> new Metric("t.x", Metric.Kind.TIMER, Metric.Unit.COUNT, "x")).hasMessageContaining("milliseconds");
        assertThatThrownBy(() -> Sample.at(Instant.EPOCH).value(EVENTS, Double.NaN).build()).hasMessageContaining("finite");
        assertThatThrownBy(() -> Sample.at(Instant.EPOCH).dimension("shard", "").value(EVENTS, 1).build())
                .hasMessageContaining("non-empty");
        assertThatThrownBy(() -> Sample.at(Instant.EPOCH).build()).hasMessageContaining("at least one value");
    }

    private List<JsonNode> lines() throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String line : bytes.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                out.add(new ObjectMapper().readTree(line));
            }
        }
        return out;
    }
}
