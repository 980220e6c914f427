package io.appendsfeed.samples.bench;

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
public final class Bench implements Callable<Integer> {

    public enum Mode { quick, full }

    public static final List<String> SCENARIOS = List.of("latency", "contention", "lambda", "peer");

    @Spec
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

    /** The options as the run took them, written into the JSON. */
    public record Settings(String mode, List<String> scenarios, double rttMs, int latencyEvents, long contentionEvents,
                           int contentionStreams, List<Integer> contentionIndexers, int lambdaRuns,
                           String peerDir, long peerEvents, int peerStreams, List<Integer> batchSizes, int repeats) {}

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
        Settings s = settings();
        Report.Machine machine = Report.Machine.now();
        long start = System.nanoTime();
        Path work = out.resolve("work");
        boolean lambdaToo = s.scenarios().contains("lambda") || s.scenarios().contains("peer");
        LambdaJar jar = lambdaToo ? LambdaJar.locate(lambdaJar, lambdaTemplate) : null;
        LatencyBench.Result latency = scenario(s, "latency", s.rttMs(), local -> {
            step("latency: %d events through the poller and a reader", s.latencyEvents());
            return LatencyBench.run(local, s.latencyEvents(), s.rttMs());
        });
        ContentionBench.Result contention = scenario(s, "contention", s.rttMs(), local -> {
            step("contention: %,d events over %,d streams, %s indexers on one partition", s.contentionEvents(), s.contentionStreams(),
                    s.contentionIndexers());
            return ContentionBench.run(local, s.contentionEvents(), s.contentionStreams(), s.contentionIndexers(), s.rttMs());
        });
        PeerBench.ColdStart lambda = scenario(s, "lambda", s.rttMs(), local -> PeerBench.coldStart(local, jar,
                s.lambdaRuns(), peerDir == null ? null : PeerHarness.prepare(peerDir, work), work, s.rttMs(), m -> step("%s", m)));
        PeerBench.Result peer = scenario(s, "peer", s.rttMs(), local -> PeerBench.run(local, new PeerBench.Params(peerDir,
                s.peerEvents(), s.peerStreams(), s.batchSizes(), s.repeats()), jar, work, s.rttMs(), m -> step("%s", m)));
        Report.Results results = new Report.Results(machine, s, latency, contention, lambda, peer, (System.nanoTime() - start) / 1e9,
                Report.loadAverage());
        System.out.println();
        System.out.print(Report.tables(results));
        written = Report.writeJson(results, out);
        System.out.println("results: " + written.toAbsolutePath());
        List<String> problems = results.problems();
        problems.forEach(p -> System.out.println("CHECK FAILED: " + p));
        return problems.isEmpty() ? 0 : 1;
    }

    /** Runs {@code name} on a fresh DynamoDB Local when asked for; null when not. */
    private static <T> T scenario(Settings s, String name, double rttMs, Function<LocalDynamo, T> run) {
        if (!s.scenarios().contains(name)) {
            return null;
        }
        try (LocalDynamo local = new LocalDynamo(rttMs)) {
            return run.apply(local);
        }
    }

    /** @throws ParameterException when an option is out of range, naming it */
    Settings settings() {
        Settings s = new Settings(mode.name(), List.copyOf(scenarios), rttMs, sized(latencyEvents, 300, 2_000),
                sized(contentionEvents, 2_000L, 20_000L), sized(contentionStreams, 200, 2_000), List.copyOf(contentionIndexers), sized(lambdaRuns, 1, 5),
                peerDir == null ? null : peerDir.toString(), sized(peerEvents, 5_000L, 100_000L), sized(peerStreams, 200, 2_000),
                List.copyOf(batchSizes), sized(repeats, 1, 3));
        check(SCENARIOS.containsAll(s.scenarios()), "--scenarios", "choose from " + SCENARIOS);
        check(rttMs >= 0 && rttMs <= 1000, "--rtt", "0..1000 ms");
        check(s.latencyEvents() >= 10, "--latency-events", "at least 10");
        check(s.contentionStreams() >= 1 && s.contentionStreams() <= s.contentionEvents(), "--contention-streams", "1..--contention-events");
        check(s.contentionIndexers().stream().allMatch(n -> n >= 1 && n <= 256), "--contention-indexers", "1..256 each");
        check(s.lambdaRuns() >= 1, "--lambda-runs", "at least 1");
        check(s.peerStreams() >= 1 && s.peerStreams() <= s.peerEvents(), "--peer-streams", "1..--peer-events");
        check(!s.batchSizes().isEmpty() && s.batchSizes().stream().allMatch(k -> k >= 1 && k <= 10_000), "--lambda-batch-sizes", "1..10,000 records each (Lambda's range)");
        check(s.repeats() >= 1, "--repeats", "at least 1");
        return s;
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
