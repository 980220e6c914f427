package io.appendsfeed.model.metrics;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.MDC;

/**
 * Writes figures as CloudWatch Embedded Metric Format (EMF) lines, one JSON object per line, to a
 * stream (stdout by default). In AWS Lambda, stdout goes to CloudWatch Logs, which turns each line
 * into metrics: no SDK, no network call, no extra permission. Elsewhere, ship the lines to
 * CloudWatch Logs with the CloudWatch agent, or read them as structured logs.
 *
 * <p>Samples recorded between two {@link #flush()}es are merged per set of dimensions (counters
 * summed, gauges the latest, timers as a list of durations) and written as one line each at the
 * flush: the indexer flushes after every batch, so a batch is one line. A timer holds at most
 * {@value #MAX_VALUES} durations in a line (EMF's limit); the line is written as soon as one is
 * full. Each line declares two dimension sets when a sample has two dimensions or more: all of
 * them, and all but the finest (e.g. {@code [group, partition]} and {@code [group]}), so alarms
 * can watch the aggregate while dashboards split it. At a flush, the current SLF4J MDC entries
 * (e.g. the Lambda request id, the shard) are added as plain members, searchable in Logs Insights.
 */
public final class EmfMetrics implements Metrics {

    /** The default CloudWatch namespace. */
    public static final String NAMESPACE = "appendsfeed";
    /** EMF's limit on the values of one metric in one line. */
    public static final int MAX_VALUES = 100;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Null: {@code System.out} as it is at each line (the Lambda runtime replaces it at start-up). */
    private final PrintStream out;
    private final String namespace;
    private final Map<String, String> fixedDimensions;
    private final Map<Map<String, String>, Pending> pending = new LinkedHashMap<>();

    /** Lines to stdout, namespace {@value #NAMESPACE}. */
    public EmfMetrics() {
        this(NAMESPACE, Map.of(), null);
    }

    /**
     * Lines to stdout as it is at each line (the Lambda runtime replaces it at start-up).
     *
     * @param namespace the CloudWatch namespace
     * @param fixedDimensions dimensions put before every sample's own, e.g. {@code service=orders}
     */
    public EmfMetrics(String namespace, Map<String, String> fixedDimensions) {
        this(namespace, fixedDimensions, null);
    }

    /**
     * @param out where lines go (one {@code println} each)
     * @param namespace the CloudWatch namespace
     * @param fixedDimensions dimensions put before every sample's own, e.g. {@code service=orders}
     */
    public EmfMetrics(PrintStream out, String namespace, Map<String, String> fixedDimensions) {
        this(namespace, fixedDimensions, Objects.requireNonNull(out, "out"));
    }

    /** @param out null: stdout as it is at each line */
    private EmfMetrics(String namespace, Map<String, String> fixedDimensions, PrintStream out) {
        if (namespace == null || namespace.isBlank()) {
            throw new IllegalArgumentException("namespace must be non-empty");
        }
        this.out = out;
        this.namespace = namespace;
        this.fixedDimensions = new LinkedHashMap<>(Objects.requireNonNull(fixedDimensions, "fixedDimensions"));
    }

    @Override
    public synchronized void record(Sample sample) {
        Map<String, String> dims = new LinkedHashMap<>(fixedDimensions);
        dims.putAll(sample.dimensions());
        Pending p = pending.computeIfAbsent(dims, Pending::new);
        p.add(sample);
        if (p.full()) {
            // written mid-unit: the thread's MDC describes only the call that filled the list, so leave it out
            write(pending.remove(dims), false);
        }
    }

    @Override
    public synchronized void flush() {
        for (Pending p : pending.values()) {
            write(p, true);
        }
        pending.clear();
    }

    /**
     * One line, written with Jackson's streaming generator: building a tree first and printing it was
     * 7% of a 100-record Lambda batch's CPU (samples/BENCHMARKS.md, "Indexer profile").
     */
    private void write(Pending p, boolean withContext) {
        java.io.StringWriter line = new java.io.StringWriter(512);
        try (JsonGenerator g = JSON.getFactory().createGenerator(line)) {
            g.writeStartObject();
            g.writeObjectFieldStart("_aws");
            g.writeNumberField("Timestamp", p.time.toEpochMilli());
            g.writeArrayFieldStart("CloudWatchMetrics");
            g.writeStartObject();
            g.writeStringField("Namespace", namespace);
            g.writeArrayFieldStart("Dimensions");
            List<String> names = new ArrayList<>(p.dimensions.keySet());
            strings(g, names);
            if (names.size() > 1) {
                strings(g, names.subList(0, names.size() - 1));
            }
            g.writeEndArray();
            g.writeArrayFieldStart("Metrics");
            for (Metric m : p.values.keySet()) {
                g.writeStartObject();
                g.writeStringField("Name", m.name());
                g.writeStringField("Unit", m.unit().cloudWatch());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
            java.util.Set<String> members = new java.util.HashSet<>();
            members.add("_aws");
            for (Map.Entry<Metric, List<Double>> e : p.values.entrySet()) {
                String name = e.getKey().name();
                List<Double> v = e.getValue();
                if (members.add(name)) {
                    if (v.size() == 1) {
                        g.writeNumberField(name, v.get(0));
                    } else {
                        g.writeArrayFieldStart(name);
                        for (Double d : v) {
                            g.writeNumber(d);
                        }
                        g.writeEndArray();
                    }
                }
            }
            for (Map.Entry<String, String> d : p.dimensions.entrySet()) {
                if (members.add(d.getKey())) {
                    g.writeStringField(d.getKey(), d.getValue());
                }
            }
            Map<String, String> context = withContext ? MDC.getCopyOfContextMap() : null;
            if (context != null) {
                for (Map.Entry<String, String> c : context.entrySet()) {
                    if (c.getValue() != null && members.add(c.getKey())) {
                        g.writeStringField(c.getKey(), c.getValue());
                    }
                }
            }
            g.writeEndObject();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e); // a StringWriter does not fail
        }
        (out != null ? out : System.out).println(line);
    }

    /** One dimension set: an array of names (an empty one when there are none). */
    private static void strings(JsonGenerator g, List<String> names) throws java.io.IOException {
        g.writeStartArray();
        for (String n : names) {
            g.writeString(n);
        }
        g.writeEndArray();
    }

    /** What was recorded for one set of dimensions since the last line. */
    private static final class Pending {
        final Map<String, String> dimensions;
        final Map<Metric, List<Double>> values = new LinkedHashMap<>();
        Instant time = Instant.EPOCH;

        Pending(Map<String, String> dimensions) {
            this.dimensions = dimensions;
        }

        void add(Sample s) {
            if (s.time().isAfter(time)) {
                time = s.time();
            }
            s.values().forEach((m, v) -> {
                List<Double> list = values.computeIfAbsent(m, x -> new ArrayList<>(1));
                if (list.isEmpty() || m.kind() == Metric.Kind.TIMER) {
                    list.add(v);
                } else if (m.kind() == Metric.Kind.COUNTER) {
                    list.set(0, list.get(0) + v);
                } else {
                    list.set(0, v);
                }
            });
        }

        boolean full() {
            return values.values().stream().anyMatch(v -> v.size() >= MAX_VALUES);
        }
    }
}
