package io.appendsfeed.samples.bench.internal;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.appendsfeed.samples.bench.internal.lambda.LambdaColdStartBench;
import io.appendsfeed.samples.bench.internal.lambda.LambdaJar;
import io.appendsfeed.samples.bench.internal.peer.PeerReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** The figures as readable tables and as a JSON file with the same numbers. */
public final class Report {

    /** A scenario (or setting) not used is left out rather than written as null. */
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);
    private static final DateTimeFormatter FILE_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private Report() {
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
        StringBuilder sb = new StringBuilder();
        Results.Machine m = r.machine();
        sb.append(String.format("appendsfeed benchmark, %s mode, %s%n%d processors, %.1f GiB RAM, max heap %.1f GiB, Java %s (%s), %s%n"
                        + "load average (1 min) %.1f at the start, %.1f at the end (others' work on the same processors)%n"
                        + "DynamoDB Local %s%n%n", r.params().mode(), m.date(), m.processors(), m.physicalMemoryBytes() / GIB,
                m.maxHeapBytes() / GIB, m.java(), m.vm(), m.os(), m.loadAverageStart(), r.loadAverageEnd(), m.dynamoDbLocal()));
        if (r.workload() != null) {
            Results.WorkloadFigures w = r.workload();
            sb.append(String.format("workload: %,d events (single-event appends) over %,d streams, written at %,.0f events/s, %.2f WCU/event%n%n",
                    w.events(), w.streams(), w.eventsPerSecond(), w.writeUnitsPerEvent()));
        }
        if (!r.index().isEmpty()) {
            Table t = new Table("1. index: indexer core fed the table's own Streams records (parse + ingest)",
                    "GetRecords limit", "batches", "events", "events/s", "WCU/event", "JSON KB/event", "stored KB/event",
                    "floor WCU/event", "x floor", "Ingested", "epochs");
            r.index().forEach(x -> t.row(x.batchLimit(), x.batches(), x.indexedEvents(), x.eventsPerSecond(),
                    x.writeUnitsPerEvent(), x.jsonKbPerEvent(), x.storedKbPerEvent(), x.floorWriteUnitsPerEvent(), x.overFloor(),
                    x.ingestedWrites(), x.epochs()));
            sb.append(t.render()).append('\n');
        }
        if (r.read() != null) {
            ReadBench.Result x = r.read();
            Table t = new Table("2. read: the same events four ways", "way", "events", "seconds", "events/s", "RCU/event", "requests");
            for (ReadBench.Leg l : new ReadBench.Leg[] {x.feedIndexOnly(), x.feedWithBodies(), x.streamsDirect(), x.queryEveryStream()}) {
                t.row(l.name(), l.events(), l.seconds(), l.eventsPerSecond(), l.readUnitsPerEvent(), l.requests());
            }
            sb.append(t.render());
            ReadBench.Ratios q = x.ratios();
            sb.append(String.format("ratios: index-only / Streams %.2f, bodies / Streams %.2f, bodies / query %.2f (speed); "
                    + "RCU bodies / query %.2f%n%n", q.feedIndexOnlyVsStreams(), q.feedBodiesVsStreams(), q.feedBodiesVsQuery(),
                    q.readUnitsBodiesVsQuery()));
        }
        if (r.latency() != null) {
            LatencyBench.Result x = r.latency();
            Table t = new Table(String.format("3. latency: append to handler, local poller (idle wait %d ms), reader (poll %d ms), %.0f appends/s",
                    x.pollerIdleWaitMs(), x.readerPollIntervalMs(), x.ratePerSecond()), "events", "p50 ms", "p99 ms", "max ms", "mean ms");
            t.row(x.events(), x.p50Ms(), x.p99Ms(), x.maxMs(), x.meanMs());
            sb.append(t.render()).append('\n');
        }
        if (!r.coldStart().isEmpty()) {
            Table t = new Table("4. cold start: Indexer.start + first ingest over an existing feed", "events", "limits", "epochs",
                    "active epoch events", "active epoch KB", "seconds", "RCU", "heap MB", "build events/s");
            r.coldStart().forEach(x -> t.row(x.label(), x.limits(), x.epochs(), x.activeEpochEvents(), x.activeEpochBytes() / 1024.0,
                    x.seconds(), x.readUnits(), x.heapBytes() / MIB, x.buildEventsPerSecond()));
            sb.append(t.render()).append('\n');
        }
        if (r.memory() != null) {
            MemoryBench.Result x = r.memory();
            Table t = new Table("5. memory: a reader walking the feed index-only (runUntilCaughtUp, defaults)", "events", "epochs",
                    "seconds", "events/s", "peak used MB", "peak after GC MB", "GCs");
            t.row(x.label(), x.epochs(), x.seconds(), x.eventsPerSecond(), x.peakUsedBytes() / MIB, x.peakAfterGcBytes() / MIB,
                    x.collections());
            sb.append(t.render()).append('\n');
        }
        if (r.contention() != null) {
            ContentionBench.Result c = r.contention();
            Table t = new Table(String.format("6. contention: N indexers (own Indexer and client each) ingesting %,d records (%,d single-event"
                            + " appends over %,d streams, split into N shards by stream) into ONE partition, batches of %d,"
                            + " conflict backoff %d ms",
                    c.records(), c.events(), c.streams(), c.runs().get(0).batchSize(), c.backoffMs()),
                    "indexers", "added RTT ms", "batches", "seconds", "records/s", "conflicts", "conflicts/batch", "most in a batch", "refused writes", "redelivered",
                    "WCU/event", "RCU/batch", "CPU ms/batch", "index correct");
            c.runs().forEach(x -> t.row(x.indexers(), x.roundTripMs() == 0 ? "none" : Table.format(x.roundTripMs()), x.batches(), x.seconds(), x.recordsPerSecond(), x.conflicts(),
                    x.conflictsPerBatch(), x.mostConflicts(), x.conditionFailures(), x.redeliveries(), x.writeUnitsPerEvent(), x.readUnitsPerBatch(),
                    x.cpuMsPerBatch(),
                    x.problems().isEmpty() ? "yes" : "NO"));
            sb.append(t.render()).append('\n');
        }
        if (r.lambdaColdStart() != null) {
            LambdaColdStartBench.Result c = r.lambdaColdStart();
            Table t = new Table(String.format("7. Lambda cold start: a fresh process per run (median of runs), handler as Lambda builds it,"
                            + " %d batches of %d records, ms from spawning the process (ours: the shaded jar, %s, flags as %s sets them)",
                    LambdaColdStartBench.BATCHES, c.batchSize(), LambdaJar.HEAP + " " + LambdaJar.RUNTIME_GC, c.template()),
                    "handler", "flags", "runs", "main", "constructed", "first batch done", "(min..max)", "1st invocation", "2nd invocation");
            c.configs().forEach(x -> t.row(x.handler(), x.flags(), x.runs(), x.mainMs(), x.constructedMs(), x.firstBatchDoneMs(),
                    Table.format(x.firstBatchDoneMinMs()) + ".." + Table.format(x.firstBatchDoneMaxMs()), x.firstInvocationMs(),
                    x.secondInvocationMs()));
            sb.append(t.render()).append('\n');
        }
        if (r.peer() != null) {
            sb.append(PeerReport.tables(r.peer()));
        }
        sb.append(String.format("total %.1f s%n", r.totalSeconds()));
        return sb.toString();
    }

    private static final double GIB = 1024.0 * 1024 * 1024;
    private static final double MIB = 1024.0 * 1024;
}
