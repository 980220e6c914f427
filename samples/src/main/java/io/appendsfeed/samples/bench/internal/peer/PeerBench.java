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
 * against the store, then both readers read both indexes, index only and with bodies.
 */
public final class PeerBench {

    /**
     * @param peerDir the equinox-js harness (see {@link PeerHarness})
     * @param events events equinox-js writes; {@code streams} the streams they go to
     * @param concurrency equinox-js's concurrent writers
     * @param batchSizes Lambda batch sizes K
     * @param keepBatches keep the batch files (they are large) after the run
     */
    public record Params(Path peerDir, long events, int streams, long seed, int concurrency, List<Integer> batchSizes,
                         boolean keepBatches) {
        public Params {
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
    public record Result(String peer, String node, String handlerJvmFlags, long events, int streams, long appends,
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
            runs.add(batchSize(local, harness, jar, w, store, facts, writeOut.resolve("manifest.json"), work, step));
            if (!p.keepBatches()) {
                delete(w.dir());
            }
        }
        return new Result(PEER, harness.nodeVersion(), jar.javaToolOptions(), facts.events(), facts.versions().size(),
                manifest.path("appends").asLong(), facts.items(), facts.tips(), manifest.at("/write/ms").asDouble() / 1000,
                manifest.at("/write/wcu").asDouble() / facts.events(), stream.records(), stream.shards(), stream.getRecordsCalls(),
                facts.bodyFloorReadUnits(), facts.bodyFloorReadUnits() / facts.events(), facts.streamFloorReadUnits(),
                facts.streamFloorReadUnits() / facts.events(), runs);
    }

    private static BatchSizeRun batchSize(LocalDynamo local, PeerHarness harness, LambdaJar jar, LambdaEventFiles.Written w,
                                          String store, StoreFacts facts, Path manifest, Path work, Consumer<String> step) {
        int k = w.batchSize();
        String ours = local.indexTable("af-index-" + k);
        String theirs = local.indexTable("ejs-index-" + k);
        step.accept(String.format("peer: K=%d: our handler (shaded jar, fresh JVM) indexes %,d batches", k, w.batches()));
        HandlerRun ourRun = HandlerProcess.java(jar, jar.javaToolOptions(), true, w.dir(), work, local.endpoint(), ours);
        step.accept(String.format("peer: K=%d: equinox-js's handler (fresh node) indexes the same batches", k));
        HandlerRun theirRun = harness.index(w.dir(), work, local.endpoint(), theirs);
        Indexing ourIndexing = Indexing.of(OURS, ourRun, IndexCheck.of(local.dynamo(), ours, facts.versions()), facts.events());
        Indexing theirIndexing = Indexing.of(THEIRS, theirRun, IndexCheck.of(local.dynamo(), theirs, facts.versions()), facts.events());

        List<ReadLeg> reads = new ArrayList<>();
        for (String[] index : new String[][] {{OURS, ours}, {THEIRS, theirs}}) {
            for (boolean bodies : new boolean[] {false, true}) {
                step.accept(String.format("peer: K=%d: our reader on the %s index, %s", k, index[0], bodies ? "with bodies" : "index only"));
                reads.add(OurReader.read(local.dynamo(), index[0], index[1], store, bodies, facts.versions()));
            }
            step.accept(String.format("peer: K=%d: equinox-js's reader on the %s index, index only and with bodies", k, index[0]));
            reads.addAll(peerRead(local, harness, store, index, manifest, work.resolve("read-" + index[1]), facts.events()));
        }
        return new BatchSizeRun(k, w.batches(), w.records(), ourIndexing, theirIndexing, reads);
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
            if (failure != null && leg.correct()) {
                List<String> problems = new ArrayList<>(leg.problems());
                problems.add(failure);
                leg = new ReadLeg(leg.reader(), leg.index(), leg.bodies(), leg.events(), leg.seconds(), leg.eventsPerSecond(),
                        leg.readUnits(), leg.readUnitsPerEvent(), leg.requests(), problems);
            }
            legs.add(leg);
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
