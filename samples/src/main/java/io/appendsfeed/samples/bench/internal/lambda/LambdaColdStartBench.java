package io.appendsfeed.samples.bench.internal.lambda;

import io.appendsfeed.samples.bench.internal.LocalDynamo;
import io.appendsfeed.samples.bench.internal.StreamsScan;
import io.appendsfeed.samples.bench.internal.Workload;
import io.appendsfeed.samples.bench.internal.peer.PeerHarness;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Lambda cold start: our handler from the shaded jar in a fresh JVM, run as the Lambda Java runtime
 * runs it (no-argument constructor, settings from the environment, events read with the runtime's
 * serializer), with the template's {@code JavaToolOptions} and with the JVM's defaults; and, when
 * the equinox-js harness is given, equinox-js's handler in a fresh node process. Each run gets a
 * fresh index table and the same first {@value #BATCHES} batches of {@value #BATCH_SIZE} records.
 * Times are from spawning the process: to its first line of code ({@code main}), to the handler
 * constructed (node: the handler module imported), to the first batch done; and the first and
 * second invocations' own times.
 */
public final class LambdaColdStartBench {

    /**
     * The median of {@code runs} runs of one configuration (and the spread of the first batch done).
     *
     * @param handler {@code appendsfeed} or {@code equinox-js}
     * @param flags the JVM flags ({@code JAVA_TOOL_OPTIONS}), or the node version
     */
    public record Config(String handler, String flags, int runs, double mainMs, double constructedMs,
                         double firstBatchDoneMs, double firstBatchDoneMinMs, double firstBatchDoneMaxMs,
                         double firstInvocationMs, double secondInvocationMs) {}

    public record Result(int batchSize, String template, List<Config> configs) {
        public Result {
            configs = List.copyOf(configs);
        }
    }

    public static final int BATCH_SIZE = 100;
    public static final int BATCHES = 2;

    private LambdaColdStartBench() {
    }

    /** @param peer equinox-js's harness, or null to measure ours only */
    public static Result run(LocalDynamo local, LambdaJar jar, int runs, PeerHarness peer, Path work, Consumer<String> step) {
        String store = local.storeTable("cold-lambda-store");
        Workload.write(local.dynamo(), store, (long) BATCH_SIZE * BATCHES, BATCH_SIZE);
        Path dir = work.resolve("cold-batches");
        LambdaEventFiles files = new LambdaEventFiles(StreamsScan.streamArn(local.dynamo(), store), Map.of(BATCH_SIZE, dir));
        StreamsScan.shards(local.dynamo(), local.streams(), store, 1000, files);
        List<Config> configs = new ArrayList<>();
        int table = 0;
        for (String flags : List.of(jar.javaToolOptions(), "")) {
            List<HandlerRun> rs = new ArrayList<>();
            for (int r = 0; r < runs; r++) {
                step.accept("lambda cold start: our handler, " + (flags.isBlank() ? "JVM defaults" : flags) + ", run " + (r + 1));
                rs.add(HandlerProcess.java(jar, flags, false, dir, work, local.endpoint(), store, local.indexTable("cold-af-" + table++), BATCH_SIZE));
            }
            configs.add(config("appendsfeed", flags.isBlank() ? "(JVM defaults)" : flags, rs));
        }
        if (peer != null) {
            List<HandlerRun> rs = new ArrayList<>();
            for (int r = 0; r < runs; r++) {
                step.accept("lambda cold start: equinox-js's handler, run " + (r + 1));
                rs.add(peer.index(dir, work, local.endpoint(), local.indexTable("cold-ejs-" + table++)));
            }
            configs.add(config("equinox-js", "node " + peer.nodeVersion(), rs));
        }
        return new Result(BATCH_SIZE, jar.template().getFileName().toString(), configs);
    }

    private static Config config(String handler, String flags, List<HandlerRun> rs) {
        double[] done = rs.stream().mapToDouble(r -> r.batches().get(0).doneMs()).toArray();
        return new Config(handler, flags, rs.size(), median(rs.stream().mapToDouble(HandlerRun::mainMs).toArray()),
                median(rs.stream().mapToDouble(HandlerRun::loadedMs).toArray()), median(done),
                Arrays.stream(done).min().orElseThrow(), Arrays.stream(done).max().orElseThrow(),
                median(rs.stream().mapToDouble(r -> r.batches().get(0).micros() / 1000.0).toArray()),
                median(rs.stream().mapToDouble(r -> r.batches().size() > 1 ? r.batches().get(1).micros() / 1000.0 : 0).toArray()));
    }

    static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
