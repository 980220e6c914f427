package io.appendsfeed.samples.bench.internal;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.appendsfeed.indexer.cli.Output.Table;
import io.appendsfeed.samples.bench.internal.PeerBench.BatchSizeRun;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/** The figures of a run as a JSON file and as tables of the same records (beside the peer: theirs, ours, the ratio). */
public final class Report {

    /** Everything one run measured, serialised as the JSON file; a scenario not run is null (left out). */
    public record Results(Machine machine, Object settings, LatencyBench.Result latency, ContentionBench.Result contention,
                          PeerBench.ColdStart lambdaColdStart, PeerBench.Result peer, double totalSeconds,
                          double loadAverageEnd) {

        /** What a check found wrong: an index that is not the store, a reader that did not deliver it. Empty when all is well. */
        public List<String> problems() {
            List<String> out = new ArrayList<>();
            if (contention != null) {
                contention.runs().forEach(r -> r.problems().forEach(p -> out.add("contention, " + r.indexers() + " indexers: " + p)));
            }
            for (BatchSizeRun run : peer == null ? List.<BatchSizeRun>of() : peer.runs()) {
                String k = "peer K=" + run.batchSize() + ", ";
                Stream.of(run.appendsfeed(), run.equinoxJs()).filter(Objects::nonNull)
                        .forEach(i -> i.problems().forEach(p -> out.add(k + i.implementation() + "'s index: " + p)));
                run.reads().forEach(l -> l.problems().forEach(p -> out.add(k + l.reader() + "'s reader on the " + l.index()
                        + " index" + (l.bodies() ? ", with bodies: " : ": ") + p)));
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

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);
    /** The tables' view of the same records: every field, nulls too, so that the columns line up. */
    private static final ObjectMapper TABLE = new ObjectMapper();
    private static final DateTimeFormatter FILE_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private Report() {
    }

    public static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    /** The element of {@code xs} in the middle by {@code by}: the median of an odd count, the lower middle of an even one. */
    static <T> T median(List<T> xs, ToDoubleFunction<T> by) {
        return xs.stream().sorted(Comparator.comparingDouble(by)).toList().get((xs.size() - 1) / 2);
    }

    /** Writes {@code results-<UTC time>.json} into {@code dir} (created if missing). */
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
            sb.append(String.format("latency: append to handler, added round trip %s; ms%n", rtt(r.latency().roundTripMs())));
            sb.append(rows(List.of(r.latency()))).append('\n');
        }
        if (r.contention() != null) {
            ContentionBench.Result c = r.contention();
            sb.append(String.format("contention: N indexers (own Indexer and client each) ingesting %,d single-event appends over %,d"
                    + " streams, split into N shards by stream, into ONE partition; batches of %d, conflict backoff %d ms, added round"
                    + " trip %s%n", c.events(), c.streams(), c.batchSize(), c.backoffMs(), rtt(c.roundTripMs()))).append(rows(c.runs()))
                    .append('\n');
        }
        if (r.lambdaColdStart() != null) {
            PeerBench.ColdStart c = r.lambdaColdStart();
            sb.append(String.format("Lambda cold start: a fresh process per run (median of runs), %d batches of %d records, added"
                    + " round trip %s; ms from spawning the process (ours: the shaded jar, %s %s)%n", PeerBench.COLD_BATCHES,
                    c.batchSize(), rtt(c.roundTripMs()), Processes.LambdaJar.HEAP, Processes.LambdaJar.RUNTIME_GC));
            sb.append(rows(c.configs())).append('\n');
        }
        if (r.peer() != null) {
            peer(sb, r.peer());
        }
        return sb.append(String.format("total %.1f s%n", r.totalSeconds())).toString();
    }

    private static void peer(StringBuilder sb, PeerBench.Result r) {
        sb.append(String.format("peer: a store written by %s%s (%,d events in %,d appends over %,d streams, %,d items; %s WCU/event"
                        + " to write), its %,d Streams records (%d shard(s)) cut into Lambda batches of K; the same files to both handlers, each in a fresh process (ours:"
                        + " JAVA_TOOL_OPTIONS=%s); added round trip %s; invocation = the runtime decoding the event + the handler;"
                        + " ratio = appendsfeed ÷ equinox-js; $ per million events at AWS on-demand prices, Lambda at %d MB%n%n",
                r.writer(), r.node().isEmpty() ? "" : " (node " + r.node() + ")", r.events(), r.appends(), r.streams(), r.storeItems(),
                format(r.writeUnitsPerEvent()), r.records(), r.shards(), r.handlerJvmFlags(), rtt(r.roundTripMs()), r.lambdaMemoryMb()));
        for (BatchSizeRun run : r.runs()) {
            sb.append(String.format("K=%,d: %,d batches; median of %d runs of each handler (fresh index each), alternating%n",
                    run.batchSize(), run.batches(), run.appendsfeed().runs()));
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"figure", PeerBench.THEIRS, PeerBench.OURS, "ratio"});
            beside(rows, "", run.equinoxJs(), run.appendsfeed());
            beside(rows, "cost.", run.equinoxJs() == null ? null : run.equinoxJs().cost(), run.appendsfeed().cost());
            sb.append(render(rows)).append(rows(run.reads())).append('\n');
        }
    }

    /** One row per field of {@code ours} (nested records left out): theirs (blank when null), ours, ours ÷ theirs. */
    private static void beside(List<String[]> rows, String prefix, Record theirs, Record ours) {
        JsonNode e = theirs == null ? null : TABLE.valueToTree(theirs);
        TABLE.valueToTree(ours).fields().forEachRemaining(f -> {
            JsonNode a = f.getValue();
            JsonNode t = e == null ? null : e.get(f.getKey());
            if (!a.isObject()) {
                String ratio = a.isNumber() && t != null && t.isNumber() && t.asDouble() != 0 ? format(a.asDouble() / t.asDouble()) + "x" : "";
                rows.add(new String[] {prefix + f.getKey(), cell(t), cell(a), ratio});
            }
        });
    }

    /** The records as rows, their fields as columns. */
    private static String rows(List<? extends Record> records) {
        List<JsonNode> nodes = records.stream().map(r -> (JsonNode) TABLE.valueToTree(r)).toList();
        List<String> names = new ArrayList<>();
        nodes.get(0).fieldNames().forEachRemaining(names::add);
        List<String[]> rows = new ArrayList<>();
        rows.add(names.toArray(String[]::new));
        nodes.forEach(n -> rows.add(names.stream().map(k -> cell(n.get(k))).toArray(String[]::new)));
        return render(rows);
    }

    /** A figure for reading; a list of problems as whether the check passed. */
    private static String cell(JsonNode c) {
        if (c == null || c.isNull()) {
            return "";
        }
        if (c.isIntegralNumber()) {
            return String.format(Locale.ROOT, "%,d", c.asLong());
        }
        if (c.isNumber()) {
            return format(c.asDouble());
        }
        if (c.isArray()) {
            return c.isEmpty() ? "correct" : "NO: " + c.size() + " problems";
        }
        return c.asText();
    }

    private static String format(double d) {
        double a = Math.abs(d);
        return String.format(Locale.ROOT, a >= 1000 ? "%,.0f" : a >= 10 ? "%.1f" : a >= 0.1 ? "%.2f" : "%.4f", d);
    }

    /** Laid out by the feed CLI's table printer (the project's one): the first row the headers, the first column left-aligned. */
    private static String render(List<String[]> rows) {
        String[] headers = rows.get(0).clone();
        Arrays.setAll(headers, i -> i == 0 ? headers[i] : headers[i] + ">");
        Table t = new Table(headers);
        rows.subList(1, rows.size()).forEach(r -> t.row((Object[]) r));
        StringWriter out = new StringWriter();
        t.print(new PrintWriter(out));
        return out.toString();
    }

    private static String rtt(double ms) {
        return ms == 0 ? "none" : format(ms) + " ms";
    }
}
