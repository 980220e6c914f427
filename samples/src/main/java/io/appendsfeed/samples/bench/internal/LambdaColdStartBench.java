package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.samples.bench.internal.HandlerDriver.Run;
import io.appendsfeed.samples.bench.internal.Processes.LambdaJar;
import io.appendsfeed.samples.bench.internal.Processes.PeerHarness;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;

/**
 * Lambda cold start: our template's handler from the shaded jar in a fresh JVM, built as Lambda builds it
 * (no-argument constructor, settings from the environment), with the template's {@code JavaToolOptions} and
 * with the JVM's defaults; with the equinox-js harness, its handler in a fresh node process. Each run gets a
 * fresh index table and the same {@value #BATCHES} batches of {@value #BATCH_SIZE} records; times are from
 * spawning the process.
 */
public final class LambdaColdStartBench {

    /**
     * The median of {@code runs} fresh processes of one configuration.
     *
     * @param flags the JVM flags ({@code JAVA_TOOL_OPTIONS}), or the node version
     */
    public record Config(String handler, String flags, int runs, double mainMs, double constructedMs, double firstBatchDoneMs,
                         double firstBatchDoneMinMs, double firstBatchDoneMaxMs, double firstInvocationMs,
                         double secondInvocationMs) {}

    public record Result(int batchSize, double roundTripMs, List<Config> configs) {}

    static final int BATCH_SIZE = 100;
    static final int BATCHES = 2;

    private LambdaColdStartBench() {
    }

    /** @param peer equinox-js's harness, or null for ours only */
    public static Result run(LocalDynamo local, LambdaJar jar, int runs, PeerHarness peer, Path work, double roundTripMs,
                             Consumer<String> step) {
        String store = "cold-store";
        local.writeWorkload(store, (long) BATCH_SIZE * BATCHES, BATCH_SIZE);
        Path dir = work.resolve("cold-batches");
        LambdaEventFiles.write(local.dynamo(), local.streams(), store, BATCH_SIZE, dir);
        List<Config> configs = new ArrayList<>();
        int table = 0;
        for (String flags : List.of(jar.javaToolOptions(), "")) {
            List<Run> rs = new ArrayList<>();
            for (int r = 1; r <= runs; r++) {
                step.accept("lambda cold start: our handler, " + (flags.isBlank() ? "JVM defaults" : flags) + ", run " + r);
                rs.add(jar.run(flags, false, dir, work, local.measured(), store, local.indexTable("cold-af-" + table++)));
            }
            configs.add(config("appendsfeed", flags.isBlank() ? "(JVM defaults)" : flags, rs));
        }
        if (peer != null) {
            List<Run> rs = new ArrayList<>();
            for (int r = 1; r <= runs; r++) {
                step.accept("lambda cold start: equinox-js's handler, run " + r);
                rs.add(peer.index(dir, work, local.measured(), local.indexTable("cold-ejs-" + table++)));
            }
            configs.add(config("equinox-js", "node " + peer.nodeVersion(), rs));
        }
        return new Result(BATCH_SIZE, roundTripMs, configs);
    }

    private static Config config(String handler, String flags, List<Run> rs) {
        ToDoubleFunction<Run> done = r -> r.batches().get(0).doneMs();
        return new Config(handler, flags, rs.size(), median(rs, Run::mainMs), median(rs, Run::loadedMs), median(rs, done),
                rs.stream().mapToDouble(done).min().orElseThrow(), rs.stream().mapToDouble(done).max().orElseThrow(),
                median(rs, r -> r.batches().get(0).invocationMicros() / 1000.0),
                median(rs, r -> r.batches().size() > 1 ? r.batches().get(1).invocationMicros() / 1000.0 : 0));
    }

    /** The median of {@code f} (the lower middle of an even count). */
    private static <T> double median(List<T> xs, ToDoubleFunction<T> f) {
        return f.applyAsDouble(Report.median(xs, f));
    }
}
