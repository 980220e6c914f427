package io.appendsfeed.samples.bench.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.appendsfeed.reader.FeedReader.CatchUpResult;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.InMemoryCheckpointStore;
import io.appendsfeed.reader.InMemoryParkedStreams;
import io.appendsfeed.reader.StartPosition;
import io.appendsfeed.samples.bench.internal.HandlerDriver.Run;
import io.appendsfeed.samples.bench.internal.Processes.LambdaJar;
import io.appendsfeed.samples.bench.internal.Processes.PeerHarness;
import io.appendsfeed.samples.bench.internal.StoreFacts.IndexCheck;
import io.appendsfeed.samples.demo.FeedTally.StreamCounter;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * appendsfeed beside equinox-js: a store equinox-js wrote, cut into Lambda batches of each size K, the same files to
 * both handlers, then both readers on both indexes, alternating sides; and the Lambda cold start.
 */
public final class PeerBench {

    /** @param peerDir the equinox-js harness, or null for our side alone */
    public record Params(Path peerDir, long events, int streams, List<Integer> batchSizes, int repeats) {}

    /** @param appends transactions that wrote the events (equinox-js: 1-5 events each; ours: 1 each) */
    public record Result(String writer, String node, String handlerJvmFlags, int lambdaMemoryMb, double roundTripMs, long events,
                         int streams, long appends, long storeItems, double writeUnitsPerEvent, long records, int shards,
                         List<BatchSizeRun> runs) {}

    /** Both handlers at one batch size ({@code equinoxJs} null without the harness), and every reader on every index. */
    public record BatchSizeRun(int batchSize, int batches, Indexing appendsfeed, Indexing equinoxJs, List<ReadLeg> reads) {}

    /** The Lambda cold start's configurations, each the median of its runs. */
    public record ColdStart(int batchSize, double roundTripMs, List<ColdStartConfig> configs) {}

    /** The median of {@code runs} fresh processes of one configuration; {@code flags}: the JVM's, or the node version. */
    public record ColdStartConfig(String handler, String flags, int runs, double mainMs, double constructedMs,
                                  double firstBatchDoneMs, double firstBatchDoneMinMs, double firstBatchDoneMaxMs,
                                  double firstInvocationMs, double secondInvocationMs) {}

    public static final String PEER = "equinox-js 1.2.0";
    static final String OURS = "appendsfeed";
    static final String THEIRS = "equinox-js";
    static final int COLD_BATCH_SIZE = 100;
    static final int COLD_BATCHES = 2;

    private PeerBench() {
    }

    /** @throws IllegalStateException when a step fails (a process, the store not holding what was written) */
    public static Result run(LocalDynamo local, Params p, LambdaJar jar, Path work, double roundTripMs, Consumer<String> step) {
        PeerHarness harness = p.peerDir() == null ? null : PeerHarness.prepare(p.peerDir(), work);
        String store = "peer-store";
        Path writeOut = work.resolve("write");
        step.accept(String.format("peer: %s writes %,d events over %,d streams", harness != null ? THEIRS : OURS, p.events(), p.streams()));
        long appends = p.events();
        double writeUnits;
        if (harness != null) {
            JsonNode manifest = harness.write(local.endpoint(), store, p.events(), p.streams(), writeOut);
            appends = manifest.path("appends").asLong();
            writeUnits = manifest.at("/write/wcu").asDouble();
        } else {
            writeUnits = local.writeWorkload(store, p.events(), p.streams());
        }
        StoreFacts facts = StoreFacts.of(local.dynamo(), store);
        if (facts.events() != p.events()) {
            throw new IllegalStateException("the store holds " + facts.events() + " events; " + p.events() + " were written");
        }
        List<BatchSizeRun> runs = new ArrayList<>();
        LambdaEventFiles.Written w = null;
        for (int k : p.batchSizes()) {
            step.accept("peer: cutting the store's stream into Lambda batches of " + k);
            // one directory for every K: writing the batches of one clears the last one's
            w = LambdaEventFiles.write(local.dynamo(), local.streams(), store, k, work.resolve("batches"));
            runs.add(batchSize(local, harness, jar, w, store, facts, writeOut.resolve("manifest.json"), work, p.repeats(), step));
        }
        return new Result(harness != null ? PEER : OURS + " (no --peer-dir: our side alone)",
                harness != null ? harness.nodeVersion() : "", jar.javaToolOptions(), jar.memoryMb(), roundTripMs, facts.events(),
                facts.versions().size(), appends, facts.items(), writeUnits / facts.events(), w.records(), w.shards(), runs);
    }

    /** Alternating, so that the machine's drift hits both sides; our reader warmed by a first read. */
    private static BatchSizeRun batchSize(LocalDynamo local, PeerHarness harness, LambdaJar jar, LambdaEventFiles.Written w,
                                          String store, StoreFacts facts, Path manifest, Path work, int repeats,
                                          Consumer<String> step) {
        int k = w.batchSize();
        List<String> sides = harness != null ? List.of(OURS, THEIRS) : List.of(OURS);
        Map<String, List<Run>> runs = new LinkedHashMap<>();
        Map<String, List<IndexCheck>> checks = new LinkedHashMap<>();
        for (int r = 1; r <= repeats; r++) {
            for (String side : sides) {
                String index = local.indexTable((side.equals(OURS) ? "af" : "ejs") + "-index-" + k + "-" + r);
                step.accept(String.format("peer: K=%d: %s's handler (fresh process) indexes %,d batches (run %d of %d)", k, side,
                        w.batches(), r, repeats));
                runs.computeIfAbsent(side, s -> new ArrayList<>()).add(side.equals(OURS)
                        ? jar.run(jar.javaToolOptions(), true, w.dir(), work, local.measured(), store, index, k)
                        : harness.index(w.dir(), work, local.measured(), index));
                checks.computeIfAbsent(side, s -> new ArrayList<>()).add(facts.check(local.dynamo(), index));
            }
        }
        Map<String, List<ReadLeg>> legs = new LinkedHashMap<>();
        // not reported: our figures are a warm reader's (a reactor Lambda's cold catch-up is another figure)
        ReadLeg.ours(local, OURS, checks.get(OURS).get(0).indexTable(), store, true, facts);
        for (int r = 1; r <= repeats; r++) {
            for (String index : sides) {
                String table = checks.get(index).get(0).indexTable();
                for (boolean bodies : new boolean[] {false, true}) {
                    step.accept(String.format("peer: K=%d: our reader on the %s index, %s (run %d of %d)", k, index,
                            bodies ? "with bodies" : "index only", r, repeats));
                    legs.computeIfAbsent(OURS + index + bodies, x -> new ArrayList<>())
                            .add(ReadLeg.ours(local, index, table, store, bodies, facts));
                }
                if (harness != null) {
                    step.accept(String.format("peer: K=%d: equinox-js's reader on the %s index, both modes (run %d of %d)", k, index, r, repeats));
                    JsonNode read = harness.read(local.measured(), store, table, manifest, work.resolve("read-" + table + "-" + r));
                    for (boolean bodies : new boolean[] {false, true}) {
                        legs.computeIfAbsent(THEIRS + index + bodies, x -> new ArrayList<>())
                                .add(ReadLeg.ofPeer(index, bodies, read, facts.events()));
                    }
                }
            }
        }
        Indexing theirs = harness == null ? null
                : Indexing.median(THEIRS, runs.get(THEIRS), checks.get(THEIRS), facts.events(), jar.memoryMb());
        return new BatchSizeRun(k, w.batches(), Indexing.median(OURS, runs.get(OURS), checks.get(OURS), facts.events(), jar.memoryMb()),
                theirs, legs.values().stream().map(ReadLeg::median).toList());
    }

    /** Our handler built as Lambda builds it, with the template's flags and the JVM's defaults, and equinox-js's if given. */
    public static ColdStart coldStart(LocalDynamo local, LambdaJar jar, int runs, PeerHarness peer, Path work, double roundTripMs,
                                      Consumer<String> step) {
        String store = "cold-store";
        local.writeWorkload(store, (long) COLD_BATCH_SIZE * COLD_BATCHES, COLD_BATCH_SIZE);
        Path dir = work.resolve("cold-batches");
        LambdaEventFiles.write(local.dynamo(), local.streams(), store, COLD_BATCH_SIZE, dir);
        List<ColdStartConfig> configs = new ArrayList<>();
        int[] table = {0};
        for (String flags : List.of(jar.javaToolOptions(), "")) {
            configs.add(coldStarts(OURS, flags.isBlank() ? "(JVM defaults)" : flags, runs, step, () -> jar.run(flags, false, dir, work,
                    local.measured(), store, local.indexTable("cold-af-" + table[0]++), COLD_BATCH_SIZE)));
        }
        if (peer != null) {
            configs.add(coldStarts(THEIRS, "node " + peer.nodeVersion(), runs, step,
                    () -> peer.index(dir, work, local.measured(), local.indexTable("cold-ejs-" + table[0]++))));
        }
        return new ColdStart(COLD_BATCH_SIZE, roundTripMs, configs);
    }

    /** {@code runs} fresh processes of one configuration, the median of each figure. */
    private static ColdStartConfig coldStarts(String handler, String flags, int runs, Consumer<String> step, Supplier<Run> run) {
        List<Run> rs = new ArrayList<>();
        for (int r = 1; r <= runs; r++) {
            step.accept("lambda cold start: " + handler + "'s handler, " + flags + ", run " + r);
            rs.add(run.get());
        }
        ToDoubleFunction<Run> done = r -> r.batches().get(0).doneMs();
        return new ColdStartConfig(handler, flags, rs.size(), median(rs, Run::mainMs), median(rs, Run::loadedMs), median(rs, done),
                rs.stream().mapToDouble(done).min().orElseThrow(), rs.stream().mapToDouble(done).max().orElseThrow(),
                median(rs, r -> r.batches().get(0).invocationMicros() / 1000.0),
                median(rs, r -> r.batches().size() > 1 ? r.batches().get(1).invocationMicros() / 1000.0 : 0));
    }

    /** The median of {@code f} (the lower middle of an even count). */
    private static <T> double median(List<T> xs, ToDoubleFunction<T> f) {
        return f.applyAsDouble(Report.median(xs, f));
    }

    /**
     * One reader reading the index {@code index} wrote to its tail, with or without bodies: the median of {@code runs}.
     *
     * @param problems how what it delivered differs from the store (every run's); empty when correct
     */
    public record ReadLeg(String reader, String index, boolean bodies, long events, double seconds, double eventsPerSecond,
                          double eventsPerSecondMin, double eventsPerSecondMax, int runs, double readUnits,
                          double readUnitsPerEvent, double usdPerMillionEvents, long requests, List<String> problems) {

        private static final Duration READ_TIMEOUT = Duration.ofMinutes(30);
        private static final ObjectMapper JSON = new ObjectMapper();

        /** Our reader at its defaults, checking what the harness checks: every event once, in order, each body JSON. */
        static ReadLeg ours(LocalDynamo local, String index, String indexTable, String storeTable, boolean bodies,
                            StoreFacts facts) {
            Meter meter = new Meter();
            StreamCounter delivered = new StreamCounter(true);
            AtomicLong events = new AtomicLong();
            AtomicLong badBodies = new AtomicLong();
            FeedReaderConfig config = FeedReaderConfig.builder("bench-" + (bodies ? "bodies" : "index"), indexTable, storeTable)
                    .start(StartPosition.beginning()).loadBodies(bodies).build();
            CatchUpResult r;
            double seconds;
            try (DynamoDbClient metered = local.meteredClient(meter)) {
                long start = System.nanoTime();
                r = new FeedReader(metered, config, (stream, batch) -> {
                    for (FeedEvent e : batch) {
                        delivered.record(stream, e.index(), 1);
                        if (bodies && !isJson(e)) {
                            badBodies.incrementAndGet();
                        }
                    }
                    events.addAndGet(batch.size());
                    return HandlerResult.handled();
                }, new InMemoryCheckpointStore(), new InMemoryParkedStreams()).runUntilCaughtUp(READ_TIMEOUT);
                seconds = (System.nanoTime() - start) / 1e9;
            }
            List<String> problems = new ArrayList<>(facts.differences(delivered.tally("delivered")));
            if (!r.caughtUp()) {
                problems.add("not caught up within " + READ_TIMEOUT + "; lag " + r.lag());
            }
            if (events.get() != facts.events()) {
                problems.add(events.get() + " events delivered, " + facts.events() + " stored");
            }
            if (badBodies.get() > 0) {
                problems.add(badBodies.get() + " bodies missing or not JSON");
            }
            Meter.Totals t = meter.take();
            return of("appendsfeed", index, bodies, events.get(), seconds, t.readUnits(), t.reads(), problems);
        }

        private static boolean isJson(FeedEvent e) {
            try {
                return e.hasBody() && JSON.readTree(e.data()) != null;
            } catch (IOException x) {
                return false;
            }
        }

        static ReadLeg of(String reader, String index, boolean bodies, long events, double seconds, double readUnits, long requests,
                          List<String> problems) {
            double rate = events / Math.max(seconds, 1e-9);
            double perEvent = events == 0 ? 0 : readUnits / events;
            return new ReadLeg(reader, index, bodies, events, seconds, rate, rate, rate, 1, readUnits, perEvent,
                    Indexing.Cost.reading(perEvent), requests, List.copyOf(problems));
        }

        /** The median of repeats of one leg (the lower middle of an even count), with every repeat's problems. */
        static ReadLeg median(List<ReadLeg> legs) {
            ReadLeg m = Report.median(legs, ReadLeg::eventsPerSecond);
            return new ReadLeg(m.reader, m.index, m.bodies, m.events, m.seconds, m.eventsPerSecond,
                    legs.stream().mapToDouble(ReadLeg::eventsPerSecond).min().orElseThrow(),
                    legs.stream().mapToDouble(ReadLeg::eventsPerSecond).max().orElseThrow(), legs.size(), m.readUnits,
                    m.readUnitsPerEvent, m.usdPerMillionEvents, m.requests, legs.stream().flatMap(l -> l.problems().stream()).toList());
        }

        /** One mode of equinox-js's reader from its {@code read-result.json} (the harness checked it against the store). */
        static ReadLeg ofPeer(String index, boolean bodies, JsonNode result, long storedEvents) {
            JsonNode r = result.path(bodies ? "WithData" : "IndexOnly");
            long events = r.path("events").asLong();
            List<String> problems = events == storedEvents ? List.of() : List.of(events + " events delivered, " + storedEvents + " stored");
            long requests = 0;
            for (JsonNode call : r.path("calls")) {
                requests += call.path("n").asLong();
            }
            return of("equinox-js", index, bodies, events, r.path("ms").asDouble() / 1000, r.path("rcu").asDouble(), requests, problems);
        }
    }
}
