package io.appendsfeed.samples.bench.internal.peer;

import com.fasterxml.jackson.databind.JsonNode;
import io.appendsfeed.samples.bench.internal.IndexCheck;
import io.appendsfeed.samples.bench.internal.LocalDynamo;
import io.appendsfeed.samples.bench.internal.Processes;
import io.appendsfeed.samples.bench.internal.StoreFacts;
import io.appendsfeed.samples.bench.internal.StreamsScan;
import io.appendsfeed.samples.bench.internal.lambda.HandlerProcess;
import io.appendsfeed.samples.bench.internal.lambda.HandlerRun;
import io.appendsfeed.samples.bench.internal.lambda.LambdaEventFiles;
import io.appendsfeed.samples.bench.internal.lambda.LambdaJar;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The peer scenario: appendsfeed beside equinox-js on one DynamoDB Local, one store table written by
 * equinox-js, the same Streams records. The store's stream is read once (every shard, parents first,
 * {@code GetRecords} limit 1000) and cut into Lambda batches of each size K, never across shards; the
 * same batch files go to our Lambda handler (the shaded jar in a fresh JVM, the template's flags) and
 * to equinox-js's (in a fresh node process), each into its own index table. Both indexes are checked
 * against the store, then both readers read both indexes, index only and with bodies. Each is done
 * {@code repeats} times, alternating between the two implementations, and the median reported.
 */
public final class PeerBench {

    /**
     * @param peerDir the equinox-js harness (see {@link PeerHarness})
     * @param events events equinox-js writes; {@code streams} the streams they go to
     * @param concurrency equinox-js's concurrent writers
     * @param batchSizes Lambda batch sizes K
     * @param keepBatches keep the batch files (they are large) after the run
     * @param repeats how often each handler indexes and each reader reads (the median is reported)
     */
    public record Params(Path peerDir, long events, int streams, long seed, int concurrency, List<Integer> batchSizes,
                         boolean keepBatches, int repeats) {
        public Params {
            if (repeats < 1) {
                throw new IllegalArgumentException("peer: --repeats must be at least 1, got " + repeats);
            }
            batchSizes = List.copyOf(batchSizes);
            if (events < 1 || streams < 1 || streams > events) {
                throw new IllegalArgumentException("peer: need 1 <= streams <= events, got " + streams + " streams, " + events + " events");
            }
            if (batchSizes.isEmpty() || batchSizes.stream().anyMatch(k -> k < 1 || k > 10_000)) {
                throw new IllegalArgumentException("peer: Lambda batch sizes are 1..10,000, got " + batchSizes);
            }
        }
    }

    /**
     * The store equinox-js wrote, and the runs at each batch size.
     *
     * @param appends equinox-js transactions (1-5 events each)
     * @param writeUnitsPerEvent what equinox-js's writes cost, per event
     * @param bodyFloorReadUnits reading every store item once on its own, eventually consistent (0.5 RCU per started 4 KB)
     * @param streamFloorReadUnits reading every stream once in one query (4 KB rounding per stream, not per item)
     */
    public record Result(String peer, String node, String handler, String handlerJvmFlags, long events, int streams, long appends,
                         long storeItems, long tips, double writeSeconds, double writeUnitsPerEvent, long records, int shards,
                         long getRecordsCalls, double bodyFloorReadUnits, double bodyFloorReadUnitsPerEvent,
                         double streamFloorReadUnits, double streamFloorReadUnitsPerEvent, List<BatchSizeRun> runs) {
        public Result {
            runs = List.copyOf(runs);
        }
    }

    /** Both handlers at one batch size, and every reader on every index. */
    public record BatchSizeRun(int batchSize, int batches, long records, Indexing appendsfeed, Indexing equinoxJs,
                               List<ReadLeg> reads) {
        public BatchSizeRun {
            reads = List.copyOf(reads);
        }

        /** The leg of {@code reader} on {@code index}'s index, or null. */
        public ReadLeg read(String reader, String index, boolean bodies) {
            return reads.stream().filter(r -> r.reader().equals(reader) && r.index().equals(index) && r.bodies() == bodies)
                    .findFirst().orElse(null);
        }
    }

    public static final String PEER = "equinox-js 1.2.0";
    static final String OURS = "appendsfeed";
    static final String THEIRS = "equinox-js";
    private static final int GET_RECORDS_LIMIT = 1000;

    private PeerBench() {
    }

    /**
     * @param work where the harness copy, the batch files and the logs go
     * @throws IllegalStateException when a step fails (a process, a check that the store is what was written)
     */
    public static Result run(LocalDynamo local, Params p, LambdaJar jar, Path work, Consumer<String> step) {
        PeerHarness harness = PeerHarness.prepare(p.peerDir(), work);
        String store = "peer-store";
        Path writeOut = work.resolve("write");
        step.accept(String.format("peer: equinox-js writes %,d events over %,d streams", p.events(), p.streams()));
        JsonNode manifest = harness.write(local.endpoint(), store, "peer-unused-index", p.events(), p.streams(), p.seed(),
                p.concurrency(), writeOut);
        StoreFacts facts = StoreFacts.of(local.dynamo(), store, true);
        if (facts.events() != manifest.path("events").asLong() || facts.versions().size() != manifest.path("streams").asInt()) {
            throw new IllegalStateException("the store holds " + facts.events() + " events in " + facts.versions().size()
                    + " streams; equinox-js reported writing " + manifest.path("events") + " in " + manifest.path("streams"));
        }

        step.accept("peer: reading the store's stream once and cutting Lambda batches of " + p.batchSizes());
        Map<Integer, Path> dirs = new LinkedHashMap<>();
        p.batchSizes().forEach(k -> dirs.put(k, work.resolve("batches-" + k)));
        LambdaEventFiles files = new LambdaEventFiles(StreamsScan.streamArn(local.dynamo(), store), dirs);
        StreamsScan.Summary stream = StreamsScan.shards(local.dynamo(), local.streams(), store, GET_RECORDS_LIMIT, files);

        List<BatchSizeRun> runs = new ArrayList<>();
        for (LambdaEventFiles.Written w : files.written()) {
            runs.add(batchSize(local, harness, jar, w, store, facts, writeOut.resolve("manifest.json"), work, p.repeats(), step));
            if (!p.keepBatches()) {
                delete(w.dir());
            }
        }
        return new Result(PEER, harness.nodeVersion(), "IndexerStreamHandler, the event's bytes handed to it",
                jar.javaToolOptions(), facts.events(), facts.versions().size(),
                manifest.path("appends").asLong(), facts.items(), facts.tips(), manifest.at("/write/ms").asDouble() / 1000,
                manifest.at("/write/wcu").asDouble() / facts.events(), stream.records(), stream.shards(), stream.getRecordsCalls(),
                facts.bodyFloorReadUnits(), facts.bodyFloorReadUnits() / facts.events(), facts.streamFloorReadUnits(),
                facts.streamFloorReadUnits() / facts.events(), runs);
    }

    /**
     * Both handlers {@code repeats} times each, alternating (so that the machine's drift hits both), each
     * run into a fresh index table; every index is checked, the median run of each side is reported. Then
     * every reader on the first index of each side, {@code repeats} times each, alternating likewise.
     */
    private static BatchSizeRun batchSize(LocalDynamo local, PeerHarness harness, LambdaJar jar, LambdaEventFiles.Written w,
                                          String store, StoreFacts facts, Path manifest, Path work, int repeats,
                                          Consumer<String> step) {
        int k = w.batchSize();
        List<HandlerRun> ourRuns = new ArrayList<>();
        List<HandlerRun> theirRuns = new ArrayList<>();
        List<IndexCheck> ourChecks = new ArrayList<>();
        List<IndexCheck> theirChecks = new ArrayList<>();
        for (int r = 1; r <= repeats; r++) {
            String ours = local.indexTable("af-index-" + k + "-" + r);
            String theirs = local.indexTable("ejs-index-" + k + "-" + r);
            step.accept(String.format("peer: K=%d: our handler (shaded jar, fresh JVM) indexes %,d batches (run %d of %d)", k,
                    w.batches(), r, repeats));
            ourRuns.add(HandlerProcess.java(jar, jar.javaToolOptions(), true, w.dir(), work, local.endpoint(), store, ours, k));
            step.accept(String.format("peer: K=%d: equinox-js's handler (fresh node) indexes the same batches (run %d of %d)", k,
                    r, repeats));
            theirRuns.add(harness.index(w.dir(), work, local.endpoint(), theirs));
            ourChecks.add(IndexCheck.of(local.dynamo(), ours, facts.versions()));
            theirChecks.add(IndexCheck.of(local.dynamo(), theirs, facts.versions()));
        }
        Indexing ourIndexing = Indexing.median(OURS, ourRuns, ourChecks, facts.events());
        Indexing theirIndexing = Indexing.median(THEIRS, theirRuns, theirChecks, facts.events());

        String[][] indexes = {{OURS, ourChecks.get(0).indexTable()}, {THEIRS, theirChecks.get(0).indexTable()}};
        Map<String, List<ReadLeg>> legs = new LinkedHashMap<>();
        for (int r = 1; r <= repeats; r++) {
            for (String[] index : indexes) {
                for (boolean bodies : new boolean[] {false, true}) {
                    step.accept(String.format("peer: K=%d: our reader on the %s index, %s (run %d of %d)", k, index[0],
                            bodies ? "with bodies" : "index only", r, repeats));
                    ReadLeg leg = OurReader.read(local.dynamo(), index[0], index[1], store, bodies, facts.versions());
                    legs.computeIfAbsent(leg.key(), x -> new ArrayList<>()).add(leg);
                }
                step.accept(String.format("peer: K=%d: equinox-js's reader on the %s index, index only and with bodies (run %d of %d)",
                        k, index[0], r, repeats));
                for (ReadLeg leg : peerRead(local, harness, store, index, manifest, work.resolve("read-" + index[1] + "-" + r),
                        facts.events())) {
                    legs.computeIfAbsent(leg.key(), x -> new ArrayList<>()).add(leg);
                }
            }
        }
        return new BatchSizeRun(k, w.batches(), w.records(), ourIndexing, theirIndexing,
                legs.values().stream().map(ReadLeg::median).toList());
    }

    /** A read that fails its own check still wrote its figures: they are kept, with the failure as the problem. */
    private static List<ReadLeg> peerRead(LocalDynamo local, PeerHarness harness, String store, String[] index, Path manifest,
                                          Path out, long events) {
        JsonNode result;
        String failure = null;
        try {
            result = harness.read(local.endpoint(), store, index[1], manifest, out);
        } catch (Processes.ProcessFailedException e) {
            failure = "equinox-js's read failed (exit " + e.exitCode() + ", log " + e.log() + ")";
            result = readResult(out);
        }
        List<ReadLeg> legs = new ArrayList<>();
        for (boolean bodies : new boolean[] {false, true}) {
            ReadLeg leg = ReadLeg.ofPeer(index[0], bodies, result, events);
            legs.add(failure != null && leg.correct() ? leg.withProblem(failure) : leg);
        }
        return legs;
    }

    private static JsonNode readResult(Path out) {
        Path f = out.resolve("read-result.json");
        try {
            return Files.isRegularFile(f) ? new com.fasterxml.jackson.databind.ObjectMapper().readTree(f.toFile())
                    : com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable " + f + ": " + e.getMessage(), e);
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete " + dir + ": " + e.getMessage(), e);
        }
    }
}
