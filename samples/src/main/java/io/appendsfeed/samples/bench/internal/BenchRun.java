package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.model.feed.EpochLimits;
import io.appendsfeed.samples.bench.internal.lambda.LambdaColdStartBench;
import io.appendsfeed.samples.bench.internal.lambda.LambdaJar;
import io.appendsfeed.samples.bench.internal.peer.PeerBench;
import io.appendsfeed.samples.bench.internal.peer.PeerHarness;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Runs the scenarios a {@link Params} asks for, in order, on one DynamoDB Local, and collects the figures. */
public final class BenchRun {

    private final Params params;
    private final PrintStream progress;
    private final Map<String, SyntheticFeed.Built> feeds = new HashMap<>();
    private final Map<String, Long> extraEvents = new HashMap<>();

    public BenchRun(Params params, PrintStream progress) {
        this.params = params;
        this.progress = progress;
    }

    /** @throws IllegalStateException when a scenario's figures fail a sanity check (events lost, not caught up) */
    public Results run() {
        long start = System.nanoTime();
        Results.Machine machine = machine();
        // One DynamoDB Local per group of scenarios: measured here, its Streams calls slow down as other
        // tables' streams fill up (the latency scenario ran 3x slower after the index scenario's 50k events).
        Results.WorkloadFigures workload = null;
        List<IndexBench.Run> index = new ArrayList<>();
        ReadBench.Result read = null;
        if (params.runs("index")) {
            try (LocalDynamo local = LocalDynamo.start(params.transport())) {
                String store = local.storeTable("bench-store");
                step("writing %,d events over %,d streams", params.events(), params.streams());
                Workload.Written w = Workload.write(local.dynamo(), store, params.events(), params.streams());
                workload = new Results.WorkloadFigures(w.events(), w.streams().size(), w.seconds(), w.events() / w.seconds(),
                        w.writeUnits() / w.events());
                for (int limit : params.batchLimits()) {
                    step("index: GetRecords limit %d", limit);
                    index.add(IndexBench.run(local, store, w.events(), limit, "bench-index-" + limit));
                }
                if (params.runs("read")) {
                    IndexBench.Run source = index.stream().filter(r -> r.batchLimit() == 100).findFirst().orElse(index.get(0));
                    step("read: four ways over the index of GetRecords limit %d", source.batchLimit());
                    read = ReadBench.run(local, store, source.indexTable(), w);
                }
            }
        }
        LatencyBench.Result latency = null;
        if (params.runs("latency")) {
            try (LocalDynamo local = LocalDynamo.start(params.transport())) {
                step("latency: %d events at %.0f/s through the poller and a reader", params.latencyEvents(), params.latencyRate());
                latency = LatencyBench.run(local, "bench-latency-store", "bench-latency-index", params.latencyEvents(),
                        Math.min(params.streams(), 50), params.latencyRate());
            }
        }
        List<ColdStartBench.Result> cold = new ArrayList<>();
        MemoryBench.Result memory = null;
        if (params.runs("cold") || params.runs("memory")) {
            try (LocalDynamo local = LocalDynamo.start(params.transport())) {
                if (params.runs("cold")) {
                    for (long events : params.coldEvents()) {
                        for (boolean oneEpoch : new boolean[] {false, true}) {
                            SyntheticFeed.Built feed = feed(local, events, oneEpoch);
                            step("cold start: %s events, %s limits", params.label(events), feed.limits());
                            cold.add(ColdStartBench.run(local, feed, limits(oneEpoch), params.label(events)));
                            extraEvents.merge(feed.indexTable(), 1L, Long::sum);
                        }
                    }
                }
                if (params.runs("memory")) {
                    SyntheticFeed.Built feed = feed(local, params.memoryEvents(), false);
                    String store = local.storeTable("bench-store"); // the reader wants one; index-only never reads it
                    step("memory: a reader walking %s events index-only", params.label(params.memoryEvents()));
                    memory = MemoryBench.run(local, feed, feed.events() + extraEvents.getOrDefault(feed.indexTable(), 0L),
                            store, params.label(params.memoryEvents()));
                }
            }
        }
        ContentionBench.Result contention = null;
        if (params.runs("contention")) {
            try (LocalDynamo local = LocalDynamo.start(params.transport())) {
                step("contention: %,d events over %,d streams, %s indexers on one partition", params.contentionEvents(),
                        params.contentionStreams(), params.contentionIndexers());
                contention = ContentionBench.run(local, params.contentionEvents(), params.contentionStreams(),
                        params.contentionBatch(), params.contentionIndexers(), params.contentionRoundTrips(),
                        java.time.Duration.ofMillis(params.contentionBackoffMs()));
            }
        }
        LambdaJar jar = params.runs("lambda") || params.runs("peer") ? LambdaJar.locate(params.lambdaJar(), params.lambdaTemplate()) : null;
        LambdaColdStartBench.Result lambda = null;
        if (params.runs("lambda")) {
            try (LocalDynamo local = LocalDynamo.start(params.transport())) {
                PeerHarness peer = params.peer() == null ? null : PeerHarness.prepare(params.peer().peerDir(), params.work());
                lambda = LambdaColdStartBench.run(local, jar, params.lambdaRuns(), peer, params.work(), this::step);
            }
        }
        PeerBench.Result peer = null;
        if (params.runs("peer")) {
            try (LocalDynamo local = LocalDynamo.start(params.transport())) {
                peer = PeerBench.run(local, params.peer(), jar, params.work(), this::step);
            }
        }
        return new Results(machine, params, workload, index, read, latency, cold, memory, contention, lambda, peer,
                (System.nanoTime() - start) / 1e9, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private SyntheticFeed.Built feed(LocalDynamo local, long events, boolean oneEpoch) {
        String table = "bench-synth-" + events + (oneEpoch ? "-one-epoch" : "-default");
        return feeds.computeIfAbsent(table, t -> {
            step("building a feed of %s events (%s limits)", params.label(events), oneEpoch ? "one-epoch" : "default");
            return SyntheticFeed.build(local, t, events, limits(oneEpoch), oneEpoch ? "one epoch" : "default");
        });
    }

    private static EpochLimits limits(boolean oneEpoch) {
        return oneEpoch ? SyntheticFeed.ONE_EPOCH : EpochLimits.DEFAULT;
    }

    private void step(String format, Object... args) {
        step(String.format(format, args));
    }

    private void step(String line) {
        progress.printf("[bench %s] %s%n", Instant.now().truncatedTo(ChronoUnit.SECONDS), line);
    }

    private Results.Machine machine() {
        long physical = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getTotalMemorySize() : -1;
        return new Results.Machine(Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(),
                Runtime.getRuntime().availableProcessors(), physical, Runtime.getRuntime().maxMemory(),
                System.getProperty("java.version"), System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                "in memory, " + (params.transport() == LocalDynamo.Transport.EMBEDDED ? "embedded (in process, no HTTP)"
                        : "HTTP server in the benchmark's JVM on a loopback port, normal SDK clients (Apache HTTP client)"),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
}
