package io.appendsfeed.samples.bench.internal;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/** The figures of a run as readable tables and as a JSON file with the same numbers. */
public final class Report {

    /**
     * Everything one run measured, serialised as the JSON file; a scenario not run is null (left out).
     *
     * @param settings the options the run took, as the command line set them
     */
    public record Results(Machine machine, Object settings, LatencyBench.Result latency, ContentionBench.Result contention,
                          LambdaColdStartBench.Result lambdaColdStart, PeerBench.Result peer, double totalSeconds,
                          double loadAverageEnd) {

        /** What a check found wrong: an index that is not the store, a reader that did not deliver it. Empty when all is well. */
        public List<String> problems() {
            List<String> out = new ArrayList<>();
            if (contention != null) {
                contention.runs().forEach(r -> r.problems().forEach(p -> out.add("contention, " + r.indexers() + " indexers: " + p)));
            }
            for (PeerBench.BatchSizeRun run : peer == null ? List.<PeerBench.BatchSizeRun>of() : peer.runs()) {
                for (Indexing i : new Indexing[] {run.appendsfeed(), run.equinoxJs()}) {
                    if (i != null) {
                        i.problems().forEach(p -> out.add("peer K=" + run.batchSize() + ", " + i.implementation() + "'s index: " + p));
                    }
                }
                run.reads().forEach(l -> l.problems().forEach(p -> out.add("peer K=" + run.batchSize() + ", " + l.reader()
                        + "'s reader on the " + l.index() + " index" + (l.bodies() ? ", with bodies: " : ": ") + p)));
            }
            return out;
        }
    }

    /** Where the figures come from; {@code loadAverageStart}: the 1-minute load average (others' work on the processors). */
    public record Machine(String date, int processors, String java, String os, double loadAverageStart) {

        public static Machine now() {
            return new Machine(Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")",
                    System.getProperty("os.name") + " " + System.getProperty("os.arch"), loadAverage());
        }
    }

    /** A scenario (or setting) not used is left out rather than written as null. */
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);
    private static final DateTimeFormatter FILE_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private Report() {
    }

    public static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    /**
     * Writes {@code results-<UTC time>.json} into {@code dir} (created if missing).
     *
     * @throws UncheckedIOException when the file cannot be written
     */
    public static Path writeJson(Results results, Path dir) {
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve("results-" + FILE_TIME.format(Instant.now()) + ".json");
            JSON.writeValue(file.toFile(), results);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the results into " + dir + ": " + e.getMessage(), e);
        }
    }

    public static String tables(Results r) {
        Machine m = r.machine();
        StringBuilder sb = new StringBuilder(String.format("appendsfeed benchmark, %s; %d processors, Java %s, %s; load average"
                        + " %.1f at the start, %.1f at the end; DynamoDB Local in memory over HTTP, a fresh one per scenario%n%n",
                m.date(), m.processors(), m.java(), m.os(), m.loadAverageStart(), r.loadAverageEnd()));
        if (r.latency() != null) {
            LatencyBench.Result x = r.latency();
            Table t = new Table(String.format("latency: append to handler, %.0f appends/s, added round trip %s, local poller (idle"
                    + " wait %d ms), reader with bodies (poll %d ms)", x.ratePerSecond(), rtt(x.roundTripMs()), x.pollerIdleWaitMs(),
                    x.readerPollIntervalMs()), "events", "p50 ms", "p99 ms", "max ms", "mean ms");
            sb.append(t.row(x.events(), x.p50Ms(), x.p99Ms(), x.maxMs(), x.meanMs()).render()).append('\n');
        }
        if (r.contention() != null) {
            ContentionBench.Result c = r.contention();
            Table t = new Table(String.format("contention: N indexers (own Indexer and client each) ingesting %,d single-event appends"
                            + " over %,d streams, split into N shards by stream, into ONE partition; batches of %d, conflict backoff %d ms",
                    c.events(), c.streams(), c.batchSize(), c.backoffMs()), "indexers", "added RTT", "batches", "seconds",
                    "records/s", "conflicts", "conflicts/batch", "most in a batch", "refused writes", "redelivered", "WCU/event",
                    "RCU/batch", "index correct");
            c.runs().forEach(x -> t.row(x.indexers(), rtt(x.roundTripMs()), x.batches(), x.seconds(), x.recordsPerSecond(),
                    x.conflicts(), x.conflictsPerBatch(), x.mostConflicts(), x.conditionFailures(), x.redeliveries(),
                    x.writeUnitsPerEvent(), x.readUnitsPerBatch(), x.problems().isEmpty() ? "yes" : "NO"));
            sb.append(t.render()).append('\n');
        }
        if (r.lambdaColdStart() != null) {
            LambdaColdStartBench.Result c = r.lambdaColdStart();
            Table t = new Table(String.format("Lambda cold start: a fresh process per run (median of runs), handler as Lambda builds it,"
                            + " %d batches of %d records, added round trip %s; ms from spawning the process (ours: the shaded jar, %s %s)",
                    LambdaColdStartBench.BATCHES, c.batchSize(), rtt(c.roundTripMs()), LambdaJar.HEAP, LambdaJar.RUNTIME_GC),
                    "handler", "flags", "runs", "main", "constructed", "first batch done", "(min..max)", "1st invocation", "2nd invocation");
            c.configs().forEach(x -> t.row(x.handler(), x.flags(), x.runs(), x.mainMs(), x.constructedMs(), x.firstBatchDoneMs(),
                    Table.format(x.firstBatchDoneMinMs()) + ".." + Table.format(x.firstBatchDoneMaxMs()), x.firstInvocationMs(),
                    x.secondInvocationMs()));
            sb.append(t.render()).append('\n');
        }
        if (r.peer() != null) {
            peer(sb, r.peer());
        }
        return sb.append(String.format("total %.1f s%n", r.totalSeconds())).toString();
    }

    private static void peer(StringBuilder sb, PeerBench.Result r) {
        sb.append(String.format("peer: a store written by %s%s (%,d events in %,d appends over %,d streams, %,d items;"
                        + " %.3f WCU/event to write), its %,d Streams records (%d shard(s)) cut into Lambda batches of K; the same files to"
                        + " both handlers, each in a fresh process (ours: the shaded jar, %s %s, JAVA_TOOL_OPTIONS=%s; theirs: node, the event"
                        + " JSON.parse'd first), each into its own index; added round trip %s on every call of the handlers and readers;"
                        + " invocation = the runtime decoding the event + the handler; ratio = appendsfeed ÷ equinox-js%n%n",
                r.writer(), r.node().isEmpty() ? "" : " (node " + r.node() + ")", r.events(), r.appends(), r.streams(),
                r.storeItems(), r.writeUnitsPerEvent(), r.records(), r.shards(), LambdaJar.HEAP, LambdaJar.RUNTIME_GC, r.handlerJvmFlags(), rtt(r.roundTripMs())));
        for (PeerBench.BatchSizeRun run : r.runs()) {
            Indexing a = run.appendsfeed();
            Indexing e = run.equinoxJs();
            Table t = new Table(String.format("K=%,d: %,d batches; median of %d runs of each handler (fresh index each), alternating",
                    run.batchSize(), run.batches(), a.runs()), "figure", PeerBench.THEIRS, PeerBench.OURS, "ratio");
            row(t, "index records/s, all batches (invocation)", e, a, Indexing::invocationRecordsPerSecond);
            t.row("  spread over the runs (min..max)", e == null ? "" : spread(e.invocationRecordsPerSecondMin(),
                    e.invocationRecordsPerSecondMax()), spread(a.invocationRecordsPerSecondMin(), a.invocationRecordsPerSecondMax()), "");
            row(t, "index records/s, first 10 batches (invocation)", e, a, Indexing::invocationFirst10RecordsPerSecond);
            row(t, "index records/s, steady state: second half (invocation)", e, a, Indexing::invocationSteadyRecordsPerSecond);
            t.row("share of the invocation decoding the event before the handler", e == null ? "" : e.decodeShare(), a.decodeShare(), "");
            row(t, "index records/s, handler time only", e, a, Indexing::handlerRecordsPerSecond);
            row(t, "handler ready, ms from spawning the process", e, a, Indexing::loadedMs);
            row(t, "WCU per event", e, a, Indexing::writeUnitsPerEvent);
            row(t, "WCU ÷ own floor (1 WCU per started KB of each Ingested)", e, a, Indexing::overFloor);
            row(t, "read calls per batch, steady state", e, a, Indexing::steadyReadsPerBatch);
            row(t, "RCU per batch, steady state", e, a, Indexing::steadyReadUnitsPerBatch);
            row(t, "write calls per batch", e, a, Indexing::writesPerBatch);
            row(t, "  of which TransactWriteItems", e, a, Indexing::transactionsPerBatch);
            row(t, "spans written", e, a, Indexing::spans);
            t.row("index correct (each event once, in order)", e == null ? "" : yes(e.problems().isEmpty()), yes(a.problems().isEmpty()), "");
            for (String index : new String[] {PeerBench.THEIRS, PeerBench.OURS}) {
                for (boolean bodies : new boolean[] {false, true}) {
                    ReadLeg le = run.read(PeerBench.THEIRS, index, bodies);
                    ReadLeg la = run.read(PeerBench.OURS, index, bodies);
                    if (la != null) {
                        String what = "both read " + index + "'s index, " + (bodies ? "with bodies" : "index only");
                        row(t, what + ": events/s", le, la, ReadLeg::eventsPerSecond);
                        row(t, what + ": RCU/event", le, la, ReadLeg::readUnitsPerEvent);
                    }
                }
            }
            t.row("with bodies, RCU floor per event: item by item / stream by stream", "",
                    Table.format(r.bodyFloorReadUnitsPerEvent()) + " / " + Table.format(r.streamFloorReadUnitsPerEvent()), "");
            t.row("every read correct", "", yes(run.reads().stream().allMatch(l -> l.problems().isEmpty())), "");
            sb.append(t.render()).append('\n');

            Table c = new Table(String.format("K=%,d: $ per million events, AWS on-demand: %.2f per million WCU, %.2f per million RCU,"
                            + " Lambda %.7f per GB-s at the template's MemorySize (%d MB) for both, on this machine's invocation times",
                    run.batchSize(), Indexing.Cost.USD_PER_MILLION_WRITE_UNITS, Indexing.Cost.USD_PER_MILLION_READ_UNITS,
                    Indexing.Cost.USD_PER_GB_SECOND, a.cost().lambdaMemoryMb()), "cost", PeerBench.THEIRS, PeerBench.OURS, "ratio");
            row(c, "indexing: write units", e, a, x -> x.cost().writeUnits());
            row(c, "indexing: read units", e, a, x -> x.cost().readUnits());
            row(c, "indexing: Lambda GB-s (billed invocation time)", e, a, x -> x.cost().lambda());
            row(c, "indexing: total", e, a, x -> x.cost().total());
            for (boolean bodies : new boolean[] {false, true}) {
                ReadLeg le = run.read(PeerBench.THEIRS, PeerBench.THEIRS, bodies);
                ReadLeg la = run.read(PeerBench.OURS, PeerBench.OURS, bodies);
                row(c, "reading its own index, " + (bodies ? "with bodies" : "index only") + ": read units", le, la, ReadLeg::usdPerMillionEvents);
            }
            sb.append(c.render()).append('\n');
        }
    }

    private static <T> void row(Table t, String figure, T theirs, T ours, ToDoubleFunction<T> f) {
        double a = f.applyAsDouble(ours);
        t.row(figure, theirs == null ? "" : f.applyAsDouble(theirs), a, theirs == null ? "" : ratio(a, f.applyAsDouble(theirs)));
    }

    private static String rtt(double ms) {
        return ms == 0 ? "none" : Table.format(ms) + " ms";
    }

    private static String spread(double min, double max) {
        return Table.format(min) + ".." + Table.format(max);
    }

    private static String ratio(double ours, double theirs) {
        return theirs == 0 ? "" : Table.format(ours / theirs) + "x";
    }

    private static String yes(boolean b) {
        return b ? "yes" : "NO";
    }
}
