package io.appendsfeed.samples.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.samples.bench.internal.Processes;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs each of the benchmark's scenarios at CI sizes and checks the JSON and the tables they write:
 * every figure present, sane relations, and the checks each makes (each event indexed once, in order;
 * every reader delivers every event). Never timings. The Lambda and peer scenarios need the indexer's
 * shaded jar (the indexer's package phase builds it); the peer scenario beside equinox-js is opt-in:
 * node and the harness, named by {@code -Dbench.peerDir} or {@code BENCH_PEER_DIR}. The peer scenario's
 * repeats (a handler JVM each) are soak-sized, opt-in with {@code -Dbench.soak=true}; by default one of each.
 */
class BenchTest {

    private static final Path TEMPLATE = Path.of("..", "indexer", "deploy", "template.yaml");
    private static final int REPEATS = Boolean.getBoolean("bench.soak") ? 2 : 1;

    @Test
    void latency_and_contention_at_tiny_sizes_write_every_figure_with_sane_relations(@TempDir Path out) throws IOException {
        Bench bench = new Bench();
        String printed = run(bench, "--scenarios", "latency,contention", "--latency-events", "30", "--contention-events", "400",
                "--contention-streams", "40", "--contention-indexers", "1,4", "--out", out.toString());
        JsonNode r = json(bench, out);
        assertThat(printed).contains("latency: append to handler", "added round trip 5.00 ms", "contention: N indexers");
        assertThat(r.at("/settings/rttMs").asDouble()).as("a round trip by default").isEqualTo(5.0);

        JsonNode latency = r.get("latency");
        assertThat(latency.get("events").asInt() + latency.get("warmupEvents").asInt()).isEqualTo(30);
        assertThat(latency.get("roundTripMs").asDouble()).isEqualTo(5.0);
        assertThat(latency.get("p50Ms").asDouble()).as("at least the round trips of an append").isGreaterThanOrEqualTo(5.0)
                .isLessThanOrEqualTo(latency.get("p99Ms").asDouble());
        assertThat(latency.get("p99Ms").asDouble()).isLessThanOrEqualTo(latency.get("maxMs").asDouble());

        JsonNode runs = r.at("/contention/runs");
        assertThat(r.at("/contention/backoffMs").asLong()).isEqualTo(IndexerConfig.DEFAULT_CONFLICT_BACKOFF_MILLIS);
        assertThat(runs.findValuesAsText("indexers")).containsExactly("1", "4");
        assertThat(r.at("/contention/roundTripMs").asDouble()).isEqualTo(5.0);
        assertThat(runs.get(0).get("conflicts").asLong()).as("one indexer has nobody to conflict with").isZero();
        assertThat(runs.get(0).get("conditionFailures").asLong()).isZero();
        for (JsonNode run : runs) {
            assertThat(run.get("records").asLong()).as("every record, whatever the concurrency").isEqualTo(400);
            assertThat(run.get("problems")).as("each event in the index once, in order").isEmpty();
            assertThat(run.get("recordsPerSecond").asDouble()).isPositive();
            assertThat(run.get("writeUnitsPerEvent").asDouble()).isPositive();
            assertThat(run.get("mostConflicts").asLong() * run.get("batches").asLong()).isGreaterThanOrEqualTo(run.get("conflicts").asLong());
            assertThat(run.get("batches").asInt()).as("each shard's 400/N records in batches of 100")
                    .isBetween(4, 4 + run.get("indexers").asInt());
        }
        assertThat(r.has("lambdaColdStart")).as("a scenario not run is left out").isFalse();
        assertThat(r.has("peer")).isFalse();
    }

    @Test
    void an_option_out_of_range_is_refused_with_the_option_named(@TempDir Path out) {
        for (String[] bad : new String[][] {{"--rtt", "-1"}, {"--lambda-batch-sizes", "100,20000"},
            {"--scenarios", "memory"}, {"--peer-streams", "9000"}}) {
            StringWriter err = new StringWriter();
            int exit = Bench.commandLine(new Bench()).setErr(new PrintWriter(err)).execute(bad[0], bad[1], "--out", out.toString());
            assertThat(exit).as(String.join(" ", bad)).isNotZero();
            assertThat(err.toString()).as(String.join(" ", bad)).contains(bad[0]);
        }
    }

    @Test
    void lambda_cold_start_runs_the_shaded_jar_in_fresh_jvms_with_the_templates_flags_and_without(@TempDir Path out) throws IOException {
        Bench bench = new Bench();
        String printed = run(bench, "--scenarios", "lambda", "--rtt", "0", "--lambda-jar", lambdaJar().toString(),
                "--lambda-template", TEMPLATE.toString(), "--out", out.toString());
        assertThat(printed).contains("Lambda cold start", "added round trip none");
        JsonNode configs = json(bench, out).at("/lambdaColdStart/configs");
        assertThat(configs.findValuesAsText("flags")).containsExactly("-XX:+TieredCompilation -XX:TieredStopAtLevel=1", "(JVM defaults)");
        for (JsonNode c : configs) {
            assertThat(c.get("handler").asText()).isEqualTo("appendsfeed");
            assertThat(c.get("constructedMs").asDouble()).isGreaterThanOrEqualTo(c.get("mainMs").asDouble());
            assertThat(c.get("firstBatchDoneMs").asDouble()).isGreaterThanOrEqualTo(c.get("constructedMs").asDouble());
            assertThat(c.get("secondInvocationMs").asDouble()).isPositive();
        }
    }

    /** The peer scenario's CI size: our side alone (no harness), on a store the benchmark writes; 2 handler JVMs (4 soak-sized). */
    @Test
    void peer_scenario_without_the_harness_indexes_and_reads_our_side_and_prices_it(@TempDir Path out) throws IOException {
        Bench bench = new Bench();
        String printed = run(bench, "--scenarios", "peer", "--peer-events", "300", "--peer-streams", "30", "--lambda-batch-sizes", "50,300",
                "--repeats", Integer.toString(REPEATS), "--lambda-jar", lambdaJar().toString(), "--lambda-template", TEMPLATE.toString(), "--out", out.toString());
        assertThat(printed).contains("K=50", "K=300", "$ per million events", "1024 MB", "cost.total");
        JsonNode p = json(bench, out).get("peer");
        assertThat(p.get("lambdaMemoryMb").asInt()).as("the template's MemorySize").isEqualTo(1024);
        assertThat(p.get("roundTripMs").asDouble()).isEqualTo(5.0);
        assertThat(p.get("records").asLong()).as("a Streams record per single-event append").isEqualTo(300);
        JsonNode runs = p.get("runs");
        assertThat(runs.findValuesAsText("batchSize")).containsExactly("50", "300");
        assertThat(runs.get(0).get("batches").asInt()).isEqualTo(6);
        for (JsonNode run : runs) {
            assertThat(run.has("equinoxJs")).as("no harness, no peer").isFalse();
            checkIndexing(run.get("appendsfeed"), 300, REPEATS);
            assertThat(run.get("reads")).hasSize(2);
            checkReads(run.get("reads"), 300, REPEATS);
        }
    }

    /** Opt-in: node and the equinox-js harness ({@code -Dbench.peerDir} or {@code BENCH_PEER_DIR}), and the jar. */
    @Test
    void peer_scenario_beside_equinox_js_checks_both_indexes_and_every_reader_on_each(@TempDir Path out) throws IOException {
        String dir = System.getProperty("bench.peerDir", System.getenv("BENCH_PEER_DIR"));
        assumeTrue(dir != null && !dir.isBlank(), "set -Dbench.peerDir (or BENCH_PEER_DIR) to the equinox-js harness");
        assumeTrue(Processes.nodeVersion() != null, "node is not installed: the peer scenario runs equinox-js on Node.js");
        Bench bench = new Bench();
        run(bench, "--scenarios", "peer", "--peer-dir", dir, "--peer-events", "300", "--peer-streams", "30", "--lambda-batch-sizes", "50,300",
                "--repeats", Integer.toString(REPEATS), "--lambda-jar", lambdaJar().toString(), "--lambda-template", TEMPLATE.toString(), "--out", out.toString());
        JsonNode p = json(bench, out).get("peer");
        assertThat(p.get("writer").asText()).startsWith("equinox-js");
        for (JsonNode run : p.get("runs")) {
            checkIndexing(run.get("appendsfeed"), 300, REPEATS);
            checkIndexing(run.get("equinoxJs"), 300, REPEATS);
            assertThat(run.get("reads")).as("both readers on both indexes, both modes").hasSize(8);
            checkReads(run.get("reads"), 300, REPEATS);
        }
    }

    private static void checkIndexing(JsonNode i, long events, int runs) {
        String side = i.get("implementation").asText();
        assertThat(i.get("problems")).as(side + "'s index: each event once, in order").isEmpty();
        assertThat(i.get("indexedEvents").asLong()).isEqualTo(events);
        assertThat(i.get("runs").asInt()).isEqualTo(runs);
        assertThat(i.get("refused").asLong()).as(side + ": no other indexer ran").isZero();
        assertThat(i.get("invocationRecordsPerSecond").asDouble()).isPositive()
                .isBetween(i.get("invocationRecordsPerSecondMin").asDouble(), i.get("invocationRecordsPerSecondMax").asDouble());
        assertThat(i.get("writeUnitsPerEvent").asDouble()).as(side).isPositive();
        JsonNode cost = i.get("cost");
        assertThat(cost.get("writeUnits").asDouble()).isEqualTo(i.get("writeUnitsPerEvent").asDouble() * 1.25, within());
        assertThat(cost.get("lambda").asDouble()).isPositive();
        assertThat(cost.get("total").asDouble()).isEqualTo(cost.get("writeUnits").asDouble() + cost.get("readUnits").asDouble()
                + cost.get("lambda").asDouble(), within());
    }

    private static void checkReads(JsonNode reads, long events, int runs) {
        for (JsonNode leg : reads) {
            String name = leg.get("reader").asText() + " on " + leg.get("index").asText() + (leg.get("bodies").asBoolean() ? ", bodies" : "");
            assertThat(leg.get("problems")).as(name).isEmpty();
            assertThat(leg.get("events").asLong()).as(name).isEqualTo(events);
            assertThat(leg.get("runs").asInt()).as(name).isEqualTo(runs);
            assertThat(leg.get("usdPerMillionEvents").asDouble()).as(name)
                    .isEqualTo(leg.get("readUnitsPerEvent").asDouble() * 0.25, within()).isPositive();
        }
    }

    private static org.assertj.core.data.Offset<Double> within() {
        return org.assertj.core.data.Offset.offset(1e-9);
    }

    /** Runs the command, and returns what it printed; it must exit 0 (every check passed). */
    private static String run(Bench bench, String... args) {
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        java.io.PrintStream stdout = System.out;
        System.setOut(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
        int exit;
        try {
            exit = Bench.commandLine(bench).execute(args);
        } finally {
            System.setOut(stdout);
        }
        String text = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
        stdout.print(text);
        assertThat(exit).as("exit code; printed:%n%s", text).isZero();
        return text;
    }

    /** The run's JSON, with no field left null (NaN or Infinity would not parse). */
    private static JsonNode json(Bench bench, Path out) throws IOException {
        assertThat(bench.written()).exists().hasParent(out);
        JsonNode r = new ObjectMapper().readTree(bench.written().toFile());
        assertThat(nullFields(r, "$")).as("fields without a value").isEmpty();
        return r;
    }

    private static Path lambdaJar() throws IOException {
        Path target = Path.of("..", "indexer", "target");
        Path jar;
        try (Stream<Path> files = Files.exists(target) ? Files.list(target) : Stream.empty()) {
            jar = files.filter(f -> f.getFileName().toString().matches("appendsfeed-indexer-.*-lambda\\.jar")).findFirst().orElse(null);
        }
        assumeTrue(jar != null, "no indexer/target/appendsfeed-indexer-*-lambda.jar yet: the indexer's package phase builds it");
        return jar;
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
