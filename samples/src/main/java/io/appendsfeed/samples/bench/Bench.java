package io.appendsfeed.samples.bench;

import io.appendsfeed.samples.bench.internal.BenchRun;
import io.appendsfeed.samples.bench.internal.LocalDynamo;
import io.appendsfeed.samples.bench.internal.Params;
import io.appendsfeed.samples.bench.internal.Report;
import io.appendsfeed.samples.bench.internal.Results;
import io.appendsfeed.samples.bench.internal.peer.PeerBench;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The benchmark: indexing throughput and cost, reading the feed against reading DynamoDB Streams
 * directly, append-to-handler latency, indexer cold start and reader memory, indexers contending
 * for one partition, the Lambda handler's cold start from the shaded jar, and (with
 * {@code --peer-dir}) all of it beside equinox-js on a store equinox-js wrote; on DynamoDB Local in
 * memory, over HTTP by default. Prints tables and writes the same figures as JSON. See
 * samples/BENCHMARKS.md.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Measures appendsfeed (and, with --peer-dir, equinox-js beside it) on DynamoDB Local and writes results-<time>.json.")
public final class Bench implements Callable<Integer> {

    public enum Mode { quick, full }

    @Option(names = "--mode", description = "quick (under a minute; the 10k/100k/1M scenarios at 1/10) or full. Default: ${DEFAULT-VALUE}")
    Mode mode = Mode.quick;

    @Option(names = "--events", description = "events written for the index and read scenarios (quick 2,000; full 50,000)")
    Long events;

    @Option(names = "--streams", description = "streams they are spread over (quick 100; full 1,000)")
    Integer streams;

    @Option(names = "--out", description = "directory for the JSON results. Default: ${DEFAULT-VALUE}")
    Path out = Path.of("target", "bench");

    @Option(names = "--transport", description = "HTTP (server on a free loopback port, normal SDK clients) or EMBEDDED (in process, no HTTP: flatters every figure). Default: ${DEFAULT-VALUE}")
    LocalDynamo.Transport transport = LocalDynamo.Transport.HTTP;

    @Option(names = "--batch-limits", split = ",", description = "GetRecords limits for the index scenario. Default: 10,100,1000")
    List<Integer> batchLimits = List.of(10, 100, 1000);

    @Option(names = "--latency-events", description = "events timed from append to handler (quick 300; full 2,000)")
    Integer latencyEvents;

    @Option(names = "--latency-rate", description = "appends per second while timing latency. Default: ${DEFAULT-VALUE}")
    double latencyRate = 100;

    @Option(names = "--cold-events", split = ",", description = "feed sizes for the cold start (quick 1000,10000,100000; full 10000,100000,1000000)")
    List<Long> coldEvents;

    @Option(names = "--memory-events", description = "feed size the reader walks for the memory figure (quick 100,000; full 1,000,000)")
    Long memoryEvents;

    @Option(names = "--contention-indexers", split = ",", description = "indexers ingesting into one partition at once. Default: 1,4,16")
    List<Integer> contentionIndexers = List.of(1, 4, 16);

    @Option(names = "--contention-events", description = "events written for the contention scenario (quick 2,000; full 20,000)")
    Long contentionEvents;

    @Option(names = "--contention-streams", description = "streams they go to (quick 200; full 2,000)")
    Integer contentionStreams;

    @Option(names = "--contention-rtt", split = ",", description = "milliseconds of round trip added between the contention"
            + " scenario's indexers and DynamoDB Local, as between Lambdas and DynamoDB (a proxy on the loopback delays"
            + " each way by half); each level runs at each. Default: 0 (none)")
    List<Double> contentionRoundTrips = List.of(0.0);

    @Option(names = "--contention-backoff", description = "the contention scenario's indexers' conflictBackoff, ms"
            + " (APPENDS_CONFLICT_BACKOFF_MS). Default: the indexer's, ${DEFAULT-VALUE}")
    long contentionBackoffMs = io.appendsfeed.indexer.IndexerConfig.DEFAULT_CONFLICT_BACKOFF_MILLIS;

    @Option(names = "--contention-batch", description = "records per batch in the contention scenario. Default: ${DEFAULT-VALUE}")
    int contentionBatch = 100;

    @Option(names = "--lambda-jar", description = "the indexer's shaded Lambda jar. Default: set by the bench profile (indexer/target/appendsfeed-indexer-<version>-lambda.jar)")
    Path lambdaJar = pathProperty("bench.lambdaJar");

    @Option(names = "--lambda-template", description = "the SAM template whose JavaToolOptions the jar runs with. Default: set by the bench profile (indexer/deploy/template.yaml)")
    Path lambdaTemplate = pathProperty("bench.lambdaTemplate");

    @Option(names = "--lambda-runs", description = "fresh JVMs per configuration for the Lambda cold start (quick 1; full 5)")
    Integer lambdaRuns;

    @Option(names = "--peer-dir", description = "the equinox-js harness (peer.mjs, package.json); runs the peer scenario. Copied and installed under --out when it has no node_modules")
    Path peerDir;

    @Option(names = "--peer-events", description = "events equinox-js writes for the peer scenario (quick 5,000; full 100,000)")
    Long peerEvents;

    @Option(names = "--peer-streams", description = "streams they go to (quick 200; full 2,000)")
    Integer peerStreams;

    @Option(names = "--peer-seed", description = "seed of equinox-js's workload. Default: ${DEFAULT-VALUE}")
    long peerSeed = 42;

    @Option(names = "--peer-concurrency", description = "equinox-js's concurrent writers. Default: ${DEFAULT-VALUE}")
    int peerConcurrency = 8;

    @Option(names = "--lambda-batch-sizes", split = ",", description = "Lambda batch sizes K of the peer scenario. Default: 100,1000")
    List<Integer> lambdaBatchSizes = List.of(100, 1000);

    @Option(names = "--repeats", description = "peer scenario: runs of each handler and each reader, alternating, median reported (quick 1; full 3)")
    Integer repeats;

    @Option(names = "--keep-batches", description = "keep the peer scenario's Lambda event files (large) under --out/work")
    boolean keepBatches;

    @Option(names = "--scenarios", split = ",", description = "which to run, of index,read,latency,cold,memory,contention,lambda,peer."
            + " Default: all (peer only with --peer-dir)")
    List<String> scenarios;

    private static final String CONFLICT_LOGGER = "org.slf4j.simpleLogger.log.io.appendsfeed.indexer.internal.EpochIngester";

    /** The JSON file of the last run, for callers that run it in process. */
    private Path written;

    public static void main(String[] args) {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"); // the indexer logs a line per batch at INFO
        }
        if (System.getProperty(CONFLICT_LOGGER) == null) {
            System.setProperty(CONFLICT_LOGGER, "error"); // the contention scenario makes conflicts on purpose; it counts them
        }
        System.exit(commandLine(new Bench()).execute(args));
    }

    /** A command line for {@code bench}; a later option overrides an earlier one (the Maven profile passes {@code --out} first). */
    public static CommandLine commandLine(Bench bench) {
        return new CommandLine(bench).setOverwrittenOptionsAllowed(true).setCaseInsensitiveEnumValuesAllowed(true);
    }

    @Override
    public Integer call() {
        Params params = params();
        Results results = new BenchRun(params, System.out).run();
        System.out.println();
        System.out.print(Report.tables(results));
        written = Report.writeJson(results, out);
        System.out.println("results: " + written.toAbsolutePath());
        List<String> problems = results.problems();
        if (!problems.isEmpty()) {
            System.out.println("CHECKS FAILED:");
            problems.forEach(p -> System.out.println("  " + p));
            return 1;
        }
        return 0;
    }

    public Path written() {
        return written;
    }

    private static Path pathProperty(String name) {
        String v = System.getProperty(name);
        return v == null || v.isBlank() ? null : Path.of(v);
    }

    Params params() {
        boolean full = mode == Mode.full;
        boolean scaled = !full && coldEvents == null && memoryEvents == null;
        // by default: all, but the peer only with its harness, and nothing that needs other processes when embedded
        List<String> which = scenarios != null ? scenarios : Params.SCENARIOS.stream()
                .filter(s -> !s.equals("peer") || peerDir != null)
                .filter(s -> transport == LocalDynamo.Transport.HTTP || !(s.equals("peer") || s.equals("lambda")))
                .toList();
        PeerBench.Params peer = peerDir == null ? null : new PeerBench.Params(peerDir,
                peerEvents != null ? peerEvents : full ? 100_000 : 5_000, peerStreams != null ? peerStreams : full ? 2_000 : 200,
                peerSeed, peerConcurrency, lambdaBatchSizes, keepBatches, repeats != null ? repeats : full ? 3 : 1);
        return new Params(mode.name(), scaled ? 10 : 1, transport,
                events != null ? events : full ? 50_000 : 2_000,
                streams != null ? streams : full ? 1_000 : 100,
                batchLimits,
                latencyEvents != null ? latencyEvents : full ? 2_000 : 300,
                latencyRate,
                coldEvents != null ? coldEvents : full ? List.of(10_000L, 100_000L, 1_000_000L) : List.of(1_000L, 10_000L, 100_000L),
                memoryEvents != null ? memoryEvents : full ? 1_000_000 : 100_000,
                contentionEvents != null ? contentionEvents : full ? 20_000 : 2_000,
                contentionStreams != null ? contentionStreams : full ? 2_000 : 200,
                contentionBatch, contentionIndexers, contentionRoundTrips, contentionBackoffMs, lambdaJar, lambdaTemplate,
                lambdaRuns != null ? lambdaRuns : full ? 5 : 1, peer, out.resolve("work"), which);
    }
}
