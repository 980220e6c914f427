package io.appendsfeed.samples.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.samples.bench.internal.peer.PeerHarness;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the benchmark's scenarios at tiny sizes and checks the JSON they write: every figure, sane
 * relations, and the checks each scenario makes (each event indexed once, in order; every reader
 * delivers every event). Never timings. The Lambda scenario needs the indexer's jar; the peer
 * scenario is opt-in (node and the equinox-js harness).
 */
class BenchTest {

    private static final long EVENTS = 200;
    private static final int LATENCY_EVENTS = 30;
    private static final long MEMORY_EVENTS = 2_000;
    private static final long CONTENTION_EVENTS = 200;

    @Test
    void quick_run_at_tiny_sizes_writes_every_figure_with_sane_relations(@TempDir Path out) throws IOException {
        Bench bench = new Bench();
        int exit = Bench.commandLine(bench).execute("--mode", "quick", "--events", Long.toString(EVENTS), "--streams", "10",
                "--latency-events", Integer.toString(LATENCY_EVENTS), "--latency-rate", "200", "--cold-events", "100,1000",
                "--memory-events", Long.toString(MEMORY_EVENTS), "--contention-events", Long.toString(CONTENTION_EVENTS),
                "--contention-streams", "20", "--contention-batch", "10", "--contention-indexers", "1,4",
                "--contention-rtt", "0,2",
                "--scenarios", "index,read,latency,cold,memory,contention", "--out", out.toString());
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

        assertThat(r.at("/machine/dynamoDbLocal").asText()).as("HTTP by default").contains("HTTP");
        JsonNode contention = r.at("/contention/runs");
        assertThat(contention).as("each level at each round trip").hasSize(4);
        assertThat(r.at("/contention/backoffMs").asLong()).as("the indexer's default").isEqualTo(IndexerConfig.DEFAULT_CONFLICT_BACKOFF_MILLIS);
        assertThat(contention.findValuesAsText("indexers")).containsExactly("1", "4", "1", "4");
        assertThat(contention.findValues("roundTripMs")).extracting(JsonNode::asDouble).containsExactly(0.0, 0.0, 2.0, 2.0);
        for (int one : new int[] {0, 2}) {
            assertThat(contention.get(one).get("conflicts").asLong()).as("one indexer has nobody to conflict with").isZero();
            assertThat(contention.get(one).get("conditionFailures").asLong()).isZero();
            assertThat(contention.get(one).get("mostConflicts").asLong()).isZero();
        }
        for (JsonNode run : contention) {
            assertThat(run.get("records").asLong()).as("every record, whatever the concurrency").isEqualTo(CONTENTION_EVENTS);
            assertThat(run.get("events").asLong()).isEqualTo(CONTENTION_EVENTS);
            assertThat(run.get("problems")).as("each event in the index once, in order").isEmpty();
            assertThat(run.get("recordsPerSecond").asDouble()).isPositive();
            assertThat(run.get("mostConflicts").asLong() * run.get("batches").asLong())
                    .as("the most conflicts of one batch, times the batches, bound them all").isGreaterThanOrEqualTo(run.get("conflicts").asLong());
            assertThat(run.get("batches").asInt()).as("20 streams' records cut into batches of 10").isBetween(20, 20 + run.get("indexers").asInt());
        }
        assertThat(r.has("lambdaColdStart")).as("a scenario not run is left out").isFalse();
        assertThat(r.has("peer")).isFalse();
    }

    @Test
    void a_round_trip_or_backoff_out_of_range_is_refused_with_the_option_named(@TempDir Path out) {
        for (String[] bad : new String[][] {{"--contention-rtt", "0,-1"}, {"--contention-rtt", "2000"}, {"--contention-backoff", "5000"}}) {
            java.io.StringWriter err = new java.io.StringWriter();
            picocli.CommandLine cl = Bench.commandLine(new Bench()).setErr(new java.io.PrintWriter(err));
            int exit = cl.execute("--scenarios", "contention", bad[0], bad[1], "--out", out.toString());
            assertThat(exit).as(String.join(" ", bad)).isNotZero();
            assertThat(err.toString()).as(String.join(" ", bad)).contains(bad[0]);
        }
    }

    /** Needs the Lambda jar that {@code package} builds in the indexer module; skipped before it exists. */
    @Test
    void lambda_cold_start_runs_the_shaded_jar_in_fresh_jvms_with_the_templates_flags_and_without(@TempDir Path out) throws IOException {
        Path jar = lambdaJar();
        Bench bench = new Bench();
        int exit = Bench.commandLine(bench).execute("--scenarios", "lambda", "--lambda-runs", "1", "--lambda-jar", jar.toString(),
                "--lambda-template", TEMPLATE.toString(), "--out", out.toString());
        assertThat(exit).isZero();
        JsonNode r = new ObjectMapper().readTree(bench.written().toFile());
        assertThat(nullFields(r.get("lambdaColdStart"), "$.lambdaColdStart")).isEmpty();
        JsonNode configs = r.at("/lambdaColdStart/configs");
        assertThat(configs).hasSize(2);
        assertThat(configs.get(0).get("flags").asText()).as("the template's JavaToolOptions").contains("-XX:");
        assertThat(configs.get(1).get("flags").asText()).isEqualTo("(JVM defaults)");
        for (JsonNode c : configs) {
            assertThat(c.get("handler").asText()).isEqualTo("appendsfeed");
            assertThat(c.get("runs").asInt()).isEqualTo(1);
            assertThat(c.get("constructedMs").asDouble()).as("constructed after main").isGreaterThanOrEqualTo(c.get("mainMs").asDouble());
            assertThat(c.get("firstBatchDoneMs").asDouble()).as("first batch done after constructing")
                    .isGreaterThanOrEqualTo(c.get("constructedMs").asDouble());
            assertThat(c.get("firstInvocationMs").asDouble()).isPositive();
            assertThat(c.get("secondInvocationMs").asDouble()).isPositive();
        }
    }

    /**
     * Opt-in: needs node and the equinox-js harness, named by the environment variable
     * {@code BENCH_PEER_DIR} (or the system property {@code bench.peerDir}), and the Lambda jar.
     */
    @Test
    void peer_scenario_at_tiny_sizes_checks_both_indexes_and_every_reader_on_each(@TempDir Path out) throws IOException {
        assumeTrue(PeerHarness.nodeInstalled(), "node is not installed: the peer scenario runs equinox-js on Node.js");
        String dir = System.getProperty("bench.peerDir", System.getenv("BENCH_PEER_DIR"));
        assumeTrue(dir != null && !dir.isBlank(), "set BENCH_PEER_DIR to the equinox-js harness to run the peer scenario");
        Path jar = lambdaJar();
        Bench bench = new Bench();
        int exit = Bench.commandLine(bench).execute("--scenarios", "peer", "--peer-dir", dir, "--peer-events", Long.toString(PEER_EVENTS),
                "--peer-streams", "30", "--lambda-batch-sizes", "50,1000", "--repeats", "2", "--lambda-jar", jar.toString(),
                "--lambda-template", TEMPLATE.toString(), "--out", out.toString());
        assertThat(exit).as("every index and every read checked out").isZero();
        JsonNode p = new ObjectMapper().readTree(bench.written().toFile()).get("peer");
        assertThat(nullFields(p, "$.peer")).isEmpty();
        assertThat(p.get("events").asLong()).isEqualTo(PEER_EVENTS);
        assertThat(p.get("records").asLong()).as("a Streams record per append at least").isGreaterThanOrEqualTo(p.get("appends").asLong());
        assertThat(p.get("bodyFloorReadUnits").asDouble()).as("item by item rounds up at least as much as stream by stream")
                .isGreaterThanOrEqualTo(p.get("streamFloorReadUnits").asDouble()).isPositive();
        JsonNode runs = p.get("runs");
        assertThat(runs).hasSize(2);
        assertThat(runs.get(0).get("batchSize").asInt()).isEqualTo(50);
        assertThat(runs.get(0).get("batches").asInt()).as("smaller batches, more of them")
                .isGreaterThan(runs.get(1).get("batches").asInt());
        for (JsonNode run : runs) {
            assertThat(run.get("records").asLong()).isEqualTo(p.get("records").asLong());
            for (String side : List.of("appendsfeed", "equinoxJs")) {
                JsonNode i = run.get(side);
                assertThat(i.get("problems")).as(side + "'s index: each event once, in order").isEmpty();
                assertThat(i.get("indexedEvents").asLong()).isEqualTo(PEER_EVENTS);
                assertThat(i.get("batches").asInt()).as(side + " got every batch").isEqualTo(run.get("batches").asInt());
                assertThat(i.get("records").asLong()).isEqualTo(run.get("records").asLong());
                assertThat(i.get("spans").asLong()).isPositive().isLessThanOrEqualTo(run.get("records").asLong());
                assertThat(i.get("writeUnitsPerEvent").asDouble()).as(side + ": never below the floor")
                        .isGreaterThanOrEqualTo(i.get("floorWriteUnitsPerEvent").asDouble()).isPositive();
                assertThat(i.get("conditionFailures").asLong()).as(side + ": no other indexer ran").isZero();
                assertThat(i.get("runs").asInt()).as("each handler ran twice, a fresh index each time").isEqualTo(2);
                assertThat(i.get("recordsPerSecond").asDouble()).isPositive()
                        .isBetween(i.get("recordsPerSecondMin").asDouble(), i.get("recordsPerSecondMax").asDouble());
                assertThat(i.get("transactionsPerBatch").asDouble()).isLessThanOrEqualTo(i.get("writesPerBatch").asDouble());
            }
            JsonNode reads = run.get("reads");
            assertThat(reads).hasSize(8);
            for (JsonNode leg : reads) {
                String name = leg.get("reader").asText() + " on " + leg.get("index").asText() + (leg.get("bodies").asBoolean() ? " with bodies" : "");
                assertThat(leg.get("problems")).as(name).isEmpty();
                assertThat(leg.get("events").asLong()).as(name).isEqualTo(PEER_EVENTS);
                assertThat(leg.get("readUnits").asDouble()).as(name).isPositive();
                assertThat(leg.get("runs").asInt()).as(name).isEqualTo(2);
                assertThat(leg.get("eventsPerSecond").asDouble()).as(name)
                        .isBetween(leg.get("eventsPerSecondMin").asDouble(), leg.get("eventsPerSecondMax").asDouble());
            }
        }
    }

    private static Path lambdaJar() throws IOException {
        Path target = Path.of("..", "indexer", "target");
        Path jar;
        try (var files = Files.exists(target) ? Files.list(target) : java.util.stream.Stream.<Path>empty()) {
            jar = files.filter(f -> f.getFileName().toString().matches("appendsfeed-indexer-.*-lambda\\.jar")).findFirst().orElse(null);
        }
        assumeTrue(jar != null, "no indexer/target/appendsfeed-indexer-*-lambda.jar yet: the indexer's package phase builds it");
        return jar;
    }

    private static final Path TEMPLATE = Path.of("..", "indexer", "deploy", "template.yaml");
    private static final long PEER_EVENTS = 300;

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
