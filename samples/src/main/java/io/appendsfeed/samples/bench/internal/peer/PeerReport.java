package io.appendsfeed.samples.bench.internal.peer;

import io.appendsfeed.samples.bench.internal.Table;
import io.appendsfeed.samples.bench.internal.lambda.LambdaJar;

/** The peer scenario's tables: per batch size, each figure beside equinox-js's, then every reader on every index. */
public final class PeerReport {

    private static final String A = PeerBench.OURS;
    private static final String E = PeerBench.THEIRS;

    private PeerReport() {
    }

    public static String tables(PeerBench.Result r) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("8. beside %s (node %s), in one run on one DynamoDB Local over HTTP: a store written by equinox-js"
                        + " (%,d events in %,d appends over %,d streams, %,d items; %.3f WCU/event to write), its %,d Streams records"
                        + " (%d shard(s)) cut into Lambda batches of K, the same batch files to both handlers, each in a fresh process"
                        + " (ours: the shaded jar, %s, %s, JAVA_TOOL_OPTIONS=%s; theirs: node, tsx, the event JSON.parse'd first)"
                        + " indexing into its own table; invocation = decoding the event (what the runtime does before the handler)"
                        + " + the handler; capacity: ReturnConsumedCapacity=TOTAL on every call, summed; ratio = appendsfeed ÷ equinox-js%n",
                r.peer(), r.node(), r.events(), r.appends(), r.streams(), r.storeItems(), r.writeUnitsPerEvent(), r.records(),
                r.shards(), r.handler(), LambdaJar.HEAP + " " + LambdaJar.RUNTIME_GC, r.handlerJvmFlags()));
        sb.append(String.format("   floor of reading with bodies, every store item once, eventually consistent (0.5 RCU per started 4 KB):"
                        + " %.1f RCU = %.5f RCU/event item by item (GetItem each); %.1f RCU = %.5f RCU/event stream by stream (one Query each)%n%n",
                r.bodyFloorReadUnits(), r.bodyFloorReadUnitsPerEvent(), r.streamFloorReadUnits(), r.streamFloorReadUnitsPerEvent()));
        for (PeerBench.BatchSizeRun run : r.runs()) {
            sb.append(sideBySide(r, run).render()).append('\n');
            sb.append(matrix(r, run).render()).append('\n');
        }
        return sb.toString();
    }

    private static String pct(double share) {
        return String.format("%.0f%%", share * 100);
    }

    private static Table sideBySide(PeerBench.Result r, PeerBench.BatchSizeRun run) {
        Indexing a = run.appendsfeed();
        Indexing e = run.equinoxJs();
        Table t = new Table(String.format("8.%d K=%,d: %,d batches, %,d records; median of %d runs of each handler (fresh index each),"
                        + " run alternately", r.runs().indexOf(run) + 1, run.batchSize(), run.batches(), run.records(),
                run.appendsfeed().runs()), "figure", E, A, "ratio");
        t.row("index records/s, all batches (invocation: event decoded + handler)", e.invocationRecordsPerSecond(),
                a.invocationRecordsPerSecond(), ratio(a.invocationRecordsPerSecond(), e.invocationRecordsPerSecond()));
        if (a.runs() > 1 || e.runs() > 1) {
            t.row("  spread over " + a.runs() + " runs (min..max)", spread(e.recordsPerSecondMin(), e.recordsPerSecondMax()),
                    spread(a.recordsPerSecondMin(), a.recordsPerSecondMax()), "");
        }
        t.row("index records/s, first 10 batches (invocation)", e.invocationFirst10RecordsPerSecond(),
                a.invocationFirst10RecordsPerSecond(), ratio(a.invocationFirst10RecordsPerSecond(), e.invocationFirst10RecordsPerSecond()));
        t.row("index records/s, steady state (invocation)", e.invocationSteadyRecordsPerSecond(),
                a.invocationSteadyRecordsPerSecond(), ratio(a.invocationSteadyRecordsPerSecond(), e.invocationSteadyRecordsPerSecond()));
        t.row("share of the invocation spent decoding the event before the handler", pct(e.decodeShare()), pct(a.decodeShare()), "");
        t.row("index records/s, all batches (handler time)", e.recordsPerSecond(), a.recordsPerSecond(),
                ratio(a.recordsPerSecond(), e.recordsPerSecond()));
        t.row("index records/s, first 10 batches (cold start)", e.first10RecordsPerSecond(), a.first10RecordsPerSecond(),
                ratio(a.first10RecordsPerSecond(), e.first10RecordsPerSecond()));
        t.row("index records/s, steady state (second half)", e.steadyRecordsPerSecond(), a.steadyRecordsPerSecond(),
                ratio(a.steadyRecordsPerSecond(), e.steadyRecordsPerSecond()));
        t.row("handler ready, ms from spawning the process", (double) e.loadedMs(), (double) a.loadedMs(),
                ratio(a.loadedMs(), e.loadedMs()));
        t.row("WCU per event", e.writeUnitsPerEvent(), a.writeUnitsPerEvent(), ratio(a.writeUnitsPerEvent(), e.writeUnitsPerEvent()));
        t.row("WCU floor per event (own Ingested bytes, 1 WCU/started KB)", e.floorWriteUnitsPerEvent(), a.floorWriteUnitsPerEvent(),
                ratio(a.floorWriteUnitsPerEvent(), e.floorWriteUnitsPerEvent()));
        t.row("WCU ÷ own floor", e.overFloor(), a.overFloor(), "");
        t.row("RCU while indexing, per batch (all)", e.readUnitsPerBatch(), a.readUnitsPerBatch(), "");
        t.row("RCU while indexing, per batch (steady state)", e.steadyReadUnitsPerBatch(), a.steadyReadUnitsPerBatch(), "");
        t.row("read calls per batch (all)", e.readsPerBatch(), a.readsPerBatch(), "");
        t.row("read calls per batch (steady state)", e.steadyReadsPerBatch(), a.steadyReadsPerBatch(), "");
        t.row("write calls per batch (all)", e.writesPerBatch(), a.writesPerBatch(), "");
        t.row("  of which TransactWriteItems (all / steady state)", Table.format(e.transactionsPerBatch()) + " / "
                + Table.format(e.steadyTransactionsPerBatch()), Table.format(a.transactionsPerBatch()) + " / "
                + Table.format(a.steadyTransactionsPerBatch()), "");
        t.row("spans written", e.spans(), a.spans(), ratio(a.spans(), e.spans()));
        t.row("Ingested events / epochs", e.ingested() + " / " + e.epochs(), a.ingested() + " / " + a.epochs(), "");
        t.row("index correct (each event once, in order)", yes(e.correct()), yes(a.correct()), "");
        for (boolean bodies : new boolean[] {false, true}) {
            ReadLeg re = run.read(E, E, bodies);
            ReadLeg ra = run.read(A, A, bodies);
            if (re != null && ra != null) {
                String m = bodies ? "with bodies" : "index only";
                t.row("read own index, " + m + ": events/s", re.eventsPerSecond(), ra.eventsPerSecond(),
                        ratio(ra.eventsPerSecond(), re.eventsPerSecond()));
                t.row("read own index, " + m + ": RCU/event", re.readUnitsPerEvent(), ra.readUnitsPerEvent(),
                        ratio(ra.readUnitsPerEvent(), re.readUnitsPerEvent()));
                if (bodies) {
                    t.row("  ÷ floor, item by item (" + Table.format(r.bodyFloorReadUnitsPerEvent()) + " RCU/event)",
                            re.readUnitsPerEvent() / r.bodyFloorReadUnitsPerEvent(), ra.readUnitsPerEvent() / r.bodyFloorReadUnitsPerEvent(), "");
                    t.row("  ÷ floor, stream by stream (" + Table.format(r.streamFloorReadUnitsPerEvent()) + " RCU/event)",
                            re.readUnitsPerEvent() / r.streamFloorReadUnitsPerEvent(), ra.readUnitsPerEvent() / r.streamFloorReadUnitsPerEvent(), "");
                }
            }
        }
        for (String index : new String[] {E, A}) {
            for (boolean bodies : new boolean[] {false, true}) {
                ReadLeg re = run.read(E, index, bodies);
                ReadLeg ra = run.read(A, index, bodies);
                if (re != null && ra != null) {
                    String m = bodies ? "with bodies" : "index only";
                    t.row("both read " + index + "'s index, " + m + ": events/s", re.eventsPerSecond(), ra.eventsPerSecond(),
                            ratio(ra.eventsPerSecond(), re.eventsPerSecond()));
                    t.row("both read " + index + "'s index, " + m + ": RCU/event", re.readUnitsPerEvent(), ra.readUnitsPerEvent(),
                            ratio(ra.readUnitsPerEvent(), re.readUnitsPerEvent()));
                }
            }
        }
        return t;
    }

    private static Table matrix(PeerBench.Result r, PeerBench.BatchSizeRun run) {
        Table t = new Table(String.format("8.%d K=%,d: every reader on every index, from the start to the tail (ours: runUntilCaughtUp,"
                        + " defaults, in the benchmark's JVM; theirs: the harness's DynamoStoreSource read, in node); median of %d reads",
                r.runs().indexOf(run) + 1, run.batchSize(), run.reads().isEmpty() ? 0 : run.reads().get(0).runs()),
                "reader", "index", "mode", "events", "seconds", "events/s", "(min..max)", "RCU", "RCU/event", "requests", "correct");
        for (ReadLeg l : run.reads()) {
            t.row(l.reader(), l.index(), l.mode(), l.events(), l.seconds(), l.eventsPerSecond(),
                    spread(l.eventsPerSecondMin(), l.eventsPerSecondMax()), l.readUnits(), l.readUnitsPerEvent(),
                    l.requests(), l.correct() ? "yes" : "NO: " + String.join("; ", l.problems()));
        }
        return t;
    }

    private static String spread(double min, double max) {
        return Table.format(min) + ".." + Table.format(max);
    }

    private static Object ratio(double ours, double theirs) {
        return theirs == 0 ? "" : Table.format(ours / theirs) + "x";
    }

    private static String yes(boolean b) {
        return b ? "yes" : "NO";
    }
}
