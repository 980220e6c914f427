package io.appendsfeed.samples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the quick benchmark at tiny sizes and checks the JSON it writes: every figure, and sane relations. Never timings. */
class BenchTest {

    private static final long EVENTS = 200;
    private static final int LATENCY_EVENTS = 30;
    private static final long MEMORY_EVENTS = 2_000;

    @Test
    void quick_run_at_tiny_sizes_writes_every_figure_with_sane_relations(@TempDir Path out) throws IOException {
        Bench bench = new Bench();
        int exit = Bench.commandLine(bench).execute("--mode", "quick", "--events", Long.toString(EVENTS), "--streams", "10",
                "--latency-events", Integer.toString(LATENCY_EVENTS), "--latency-rate", "200", "--cold-events", "100,1000",
                "--memory-events", Long.toString(MEMORY_EVENTS), "--out", out.toString());
        assertThat(exit).isZero();
        assertThat(bench.written()).exists().hasParent(out);
        JsonNode r = new ObjectMapper().readTree(bench.written().toFile()); // NaN or Infinity would not parse

        assertThat(nullFields(r, "$")).as("fields without a value").isEmpty();
        assertThat(r.at("/machine/processors").asInt()).isPositive();
        assertThat(r.at("/workload/events").asLong()).isEqualTo(EVENTS);

        JsonNode index = r.get("index");
        assertThat(index).hasSize(3);
        List<Integer> limits = new ArrayList<>();
        for (JsonNode run : index) {
            limits.add(run.get("batchLimit").asInt());
            assertThat(run.get("indexedEvents").asLong()).as("events indexed == events written").isEqualTo(EVENTS);
            assertThat(run.get("writeUnitsPerEvent").asDouble()).isPositive();
            assertThat(run.get("floorWriteUnitsPerEvent").asDouble()).isPositive();
            assertThat(run.get("writeUnitsPerEvent").asDouble()).as("never below the floor")
                    .isGreaterThanOrEqualTo(run.get("floorWriteUnitsPerEvent").asDouble());
            assertThat(run.get("storedBytes").asLong()).isPositive().isLessThanOrEqualTo(run.get("jsonBytes").asLong());
            assertThat(run.get("ingestedWrites").asLong()).isBetween(1L, run.get("batches").asLong() + run.get("epochs").asLong());
            assertThat(run.get("eventsPerSecond").asDouble()).isPositive();
        }
        assertThat(limits).containsExactly(10, 100, 1000);
        assertThat(index.get(0).get("batches").asInt()).as("smaller batches, more of them")
                .isGreaterThan(index.get(2).get("batches").asInt());

        for (String leg : List.of("feedIndexOnly", "feedWithBodies", "streamsDirect", "queryEveryStream")) {
            JsonNode l = r.at("/read/" + leg);
            assertThat(l.get("events").asLong()).as(leg).isEqualTo(EVENTS);
            assertThat(l.get("eventsPerSecond").asDouble()).as(leg).isPositive();
            assertThat(l.get("requests").asLong()).as(leg).isPositive();
        }
        assertThat(r.at("/read/feedWithBodies/readUnitsPerEvent").asDouble()).as("bodies cost more than the index alone")
                .isGreaterThan(r.at("/read/feedIndexOnly/readUnitsPerEvent").asDouble()).isPositive();
        assertThat(r.at("/read/queryEveryStream/readUnitsPerEvent").asDouble()).isPositive();
        assertThat(r.at("/read/ratios/feedBodiesVsStreams").asDouble()).isPositive();

        JsonNode latency = r.get("latency");
        assertThat(latency.get("events").asInt() + latency.get("warmupEvents").asInt()).isEqualTo(LATENCY_EVENTS);
        assertThat(latency.get("p50Ms").asDouble()).isPositive()
                .isLessThanOrEqualTo(latency.get("p99Ms").asDouble());
        assertThat(latency.get("p99Ms").asDouble()).isLessThanOrEqualTo(latency.get("maxMs").asDouble());

        JsonNode cold = r.get("coldStart");
        assertThat(cold).hasSize(4);
        for (JsonNode c : cold) {
            assertThat(c.get("limits").asText()).isIn("default", "one epoch");
            assertThat(c.get("epochs").asInt()).isPositive();
            assertThat(c.get("activeEpochEvents").asLong()).isPositive().isLessThanOrEqualTo(c.get("events").asLong());
            assertThat(c.get("readUnits").asDouble()).as("a cold indexer reads the active epoch").isPositive();
        }
        assertThat(cold.get(3).get("activeEpochEvents").asLong()).as("raised limits hold every event in one epoch")
                .isEqualTo(cold.get(3).get("events").asLong());

        JsonNode memory = r.get("memory");
        assertThat(memory.get("events").asLong()).as("the feed plus the cold start's extra event")
                .isBetween(MEMORY_EVENTS, MEMORY_EVENTS + 1);
        assertThat(memory.get("peakUsedBytes").asLong()).isPositive();
    }

    private static List<String> nullFields(JsonNode node, String path) {
        List<String> nulls = new ArrayList<>();
        if (node.isNull()) {
            nulls.add(path);
        }
        node.fields().forEachRemaining(e -> nulls.addAll(nullFields(e.getValue(), path + "." + e.getKey())));
        for (int k = 0; node.isArray() && k < node.size(); k++) {
            nulls.addAll(nullFields(node.get(k), path + "[" + k + "]"));
        }
        return nulls;
    }
}
