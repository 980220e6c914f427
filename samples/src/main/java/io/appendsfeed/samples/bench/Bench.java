package io.appendsfeed.samples.bench;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonIgnore;
import io.appendsfeed.samples.bench.internal.ContentionBench;
import io.appendsfeed.samples.bench.internal.LatencyBench;
import io.appendsfeed.samples.bench.internal.LocalDynamo;
import io.appendsfeed.samples.bench.internal.PeerBench;
import io.appendsfeed.samples.bench.internal.Processes.LambdaJar;
import io.appendsfeed.samples.bench.internal.Processes.PeerHarness;
import io.appendsfeed.samples.bench.internal.Report;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The benchmark: latency, contention, the Lambda cold start, and indexing and reading beside equinox-js with their
 * cost per million events, on DynamoDB Local over HTTP with a round trip added. See samples/BENCHMARKS.md.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Measures appendsfeed (and, with --peer-dir, equinox-js beside it) on DynamoDB Local and writes results-<time>.json.")
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // the JSON's "settings": the options as the run took them
public final class Bench implements Callable<Integer> {

    public enum Mode { quick, full }

    public static final List<String> SCENARIOS = List.of("latency", "contention", "lambda", "peer");

    @Spec
    @JsonIgnore
    CommandLine.Model.CommandSpec spec;
    @Option(names = "--mode", description = "quick or full: the default sizes below. Default: ${DEFAULT-VALUE}")
    Mode mode = Mode.quick;
    @Option(names = "--scenarios", split = ",", description = "which to run, of latency,contention,lambda,peer. Default: all")
    List<String> scenarios = SCENARIOS;
    @Option(names = "--rtt", description = "ms of round trip added to every measured DynamoDB call (a proxy delays each way by"
            + " half), as between a Lambda and DynamoDB; 0 for none. Default: ${DEFAULT-VALUE}")
    double rttMs = 5;
    @Option(names = "--latency-events", description = "events timed from append to handler (quick 300; full 2,000)")
    Integer latencyEvents;
    @Option(names = "--contention-events", description = "single-event appends for the contention scenario (quick 2,000; full 20,000)")
    Long contentionEvents;
    @Option(names = "--contention-streams", description = "streams they go to (quick 200; full 2,000)")
    Integer contentionStreams;
    @Option(names = "--contention-indexers", split = ",", description = "indexers on one partition at once, each level in turn. Default: 1,4,16")
    List<Integer> contentionIndexers = List.of(1, 4, 16);
    @Option(names = "--lambda-runs", description = "fresh processes per configuration for the Lambda cold start (quick 1; full 5)")
    Integer lambdaRuns;
    @Option(names = "--lambda-jar", defaultValue = "${sys:bench.lambdaJar}",
            description = "the indexer's shaded Lambda jar. Default: set by the bench profile")
    Path lambdaJar;
    @Option(names = "--lambda-template", defaultValue = "${sys:bench.lambdaTemplate}",
            description = "the SAM template (its JavaToolOptions and MemorySize). Default: set by the bench profile")
    Path lambdaTemplate;
    @Option(names = "--peer-dir", description = "the equinox-js harness (peer.mjs, package.json): runs the peer scenario beside"
            + " equinox-js; without it, our side alone on a store the benchmark writes")
    Path peerDir;
    @Option(names = "--peer-events", description = "events written for the peer scenario (quick 5,000; full 100,000)")
    Long peerEvents;
    @Option(names = "--peer-streams", description = "streams they go to (quick 200; full 2,000)")
    Integer peerStreams;
    @Option(names = "--lambda-batch-sizes", split = ",", description = "Lambda batch sizes K of the peer scenario. Default: 100,300")
    List<Integer> batchSizes = List.of(100, 300);
    @Option(names = "--repeats", description = "peer scenario: runs of each handler and each read, alternating, median reported (quick 1; full 3)")
    Integer repeats;
    @Option(names = "--out", description = "directory for the JSON results. Default: ${DEFAULT-VALUE}")
    Path out = Path.of("target", "bench");

    @JsonIgnore
    private Path written;

    public static void main(String[] args) {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"));
        // the contention scenario makes conflicts on purpose, and counts them
        System.setProperty("org.slf4j.simpleLogger.log.io.appendsfeed.indexer.internal.EpochIngester", "error");
        System.exit(commandLine(new Bench()).execute(args));
    }

    /** A later option overrides an earlier one (the Maven profile passes {@code --out} first). */
    public static CommandLine commandLine(Bench bench) {
        return new CommandLine(bench).setOverwrittenOptionsAllowed(true).setCaseInsensitiveEnumValuesAllowed(true);
    }

    /** The JSON file of the last run, for callers that run it in process. */
    public Path written() {
        return written;
    }

    @Override
    public Integer call() {
        resolve();
        Report.Machine machine = Report.Machine.now();
        long start = System.nanoTime();
        Path work = out.resolve("work");
        boolean lambdaToo = scenarios.contains("lambda") || scenarios.contains("peer");
        LambdaJar jar = lambdaToo ? LambdaJar.locate(lambdaJar, lambdaTemplate) : null;
        LatencyBench.Result latency = scenario("latency", local -> {
            step("latency: %d events through the poller and a reader", latencyEvents);
            return LatencyBench.run(local, latencyEvents, rttMs);
        });
        ContentionBench.Result contention = scenario("contention", local -> {
            step("contention: %,d events over %,d streams, %s indexers on one partition", contentionEvents, contentionStreams,
                    contentionIndexers);
            return ContentionBench.run(local, contentionEvents, contentionStreams, contentionIndexers, rttMs);
        });
        PeerBench.ColdStart lambda = scenario("lambda", local -> PeerBench.coldStart(local, jar, lambdaRuns,
                peerDir == null ? null : PeerHarness.prepare(peerDir, work), work, rttMs, m -> step("%s", m)));
        PeerBench.Result peer = scenario("peer", local -> PeerBench.run(local, new PeerBench.Params(peerDir, peerEvents,
                peerStreams, batchSizes, repeats), jar, work, rttMs, m -> step("%s", m)));
        Report.Results results = new Report.Results(machine, this, latency, contention, lambda, peer, (System.nanoTime() - start) / 1e9,
                Report.loadAverage());
        System.out.println();
        System.out.print(Report.tables(results));
        written = Report.writeJson(results, out);
        System.out.println("results: " + written.toAbsolutePath());
        List<String> problems = results.problems();
        problems.forEach(p -> System.out.println("CHECK FAILED: " + p));
        return problems.isEmpty() ? 0 : 1;
    }

    /** Runs {@code name} on a fresh DynamoDB Local, with the round trip added, when asked for; null when not. */
    private <T> T scenario(String name, Function<LocalDynamo, T> run) {
        if (!scenarios.contains(name)) {
            return null;
        }
        try (LocalDynamo local = new LocalDynamo(rttMs)) {
            return run.apply(local);
        }
    }

    /**
     * Gives each size the mode's default where none was given.
     *
     * @throws ParameterException when an option is out of range, naming it
     */
    void resolve() {
        latencyEvents = sized(latencyEvents, 300, 2_000);
        contentionEvents = sized(contentionEvents, 2_000L, 20_000L);
        contentionStreams = sized(contentionStreams, 200, 2_000);
        lambdaRuns = sized(lambdaRuns, 1, 5);
        peerEvents = sized(peerEvents, 5_000L, 100_000L);
        peerStreams = sized(peerStreams, 200, 2_000);
        repeats = sized(repeats, 1, 3);
        check(SCENARIOS.containsAll(scenarios), "--scenarios", "choose from " + SCENARIOS);
        check(rttMs >= 0 && rttMs <= 1000, "--rtt", "0..1000 ms");
        check(latencyEvents >= 10, "--latency-events", "at least 10");
        check(contentionStreams >= 1 && contentionStreams <= contentionEvents, "--contention-streams", "1..--contention-events");
        check(contentionIndexers.stream().allMatch(n -> n >= 1 && n <= 256), "--contention-indexers", "1..256 each");
        check(lambdaRuns >= 1, "--lambda-runs", "at least 1");
        check(peerStreams >= 1 && peerStreams <= peerEvents, "--peer-streams", "1..--peer-events");
        check(!batchSizes.isEmpty() && batchSizes.stream().allMatch(k -> k >= 1 && k <= 10_000), "--lambda-batch-sizes", "1..10,000 records each (Lambda's range)");
        check(repeats >= 1, "--repeats", "at least 1");
    }

    /** The size given, or the mode's default. */
    private <T> T sized(T given, T quick, T full) {
        return given != null ? given : mode == Mode.full ? full : quick;
    }

    private void check(boolean ok, String option, String range) {
        if (!ok) {
            throw new ParameterException(spec.commandLine(), option + ": " + range);
        }
    }

    private void step(String format, Object... args) {
        System.out.printf("[bench %s] %s%n", Instant.now().truncatedTo(ChronoUnit.SECONDS), String.format(format, args));
    }
}
