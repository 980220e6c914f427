package io.appendsfeed.model.metrics;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.MDC;

/**
 * Writes figures as CloudWatch Embedded Metric Format lines to stdout: in Lambda, CloudWatch Logs turns each into
 * metrics, with no call of our own.
 *
 * <p>Samples between two {@link #flush()}es are merged per set of dimensions (counters summed, gauges the latest,
 * timers a list) into one line each, written early when a timer holds {@value #MAX_VALUES} values (EMF's limit).
 * A line declares all its dimensions and all but the finest ({@code [group, partition]} and {@code [group]}). At a
 * flush, the SLF4J MDC entries (e.g. the Lambda request id) are added as members.
 */
public final class EmfMetrics implements Metrics {

    public static final String NAMESPACE = "appendsfeed";
    public static final int MAX_VALUES = 100;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final PrintStream out;
    private final String namespace;
    private final Map<String, String> fixedDimensions;
    private final Map<Map<String, String>, Pending> pending = new LinkedHashMap<>();

    public EmfMetrics() {
        this(NAMESPACE, Map.of());
    }

    /** @param fixedDimensions dimensions put before every sample's own, e.g. {@code service=orders} */
    public EmfMetrics(String namespace, Map<String, String> fixedDimensions) {
        this(null, namespace, fixedDimensions);
    }

    /** @param out null: stdout as it is at each line (the Lambda runtime replaces it at start-up) */
    public EmfMetrics(PrintStream out, String namespace, Map<String, String> fixedDimensions) {
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

    /** The EMF directive, then the figures, the dimensions and the MDC entries as members (the first of a name wins). */
    private void write(Pending p, boolean withContext) {
        ObjectNode line = JSON.createObjectNode();
        ObjectNode directive = line.putObject("_aws").put("Timestamp", p.time.toEpochMilli())
                .putArray("CloudWatchMetrics").addObject().put("Namespace", namespace);
        List<String> names = new ArrayList<>(p.dimensions.keySet());
        ArrayNode sets = directive.putArray("Dimensions");
        names.forEach(sets.addArray()::add);
        if (names.size() > 1) {
            names.subList(0, names.size() - 1).forEach(sets.addArray()::add);
        }
        ArrayNode metrics = directive.putArray("Metrics");
        p.values.forEach((m, v) -> {
            metrics.addObject().put("Name", m.name()).put("Unit", m.unit().cloudWatch());
            if (line.has(m.name())) {
                return;
            }
            if (v.size() == 1) {
                line.put(m.name(), v.get(0));
            } else {
                v.forEach(line.putArray(m.name())::add);
            }
        });
        Map<String, String> members = new LinkedHashMap<>(p.dimensions);
        Map<String, String> context = withContext ? MDC.getCopyOfContextMap() : null;
        if (context != null) {
            context.forEach(members::putIfAbsent);
        }
        members.forEach((k, v) -> {
            if (v != null && !line.has(k)) {
                line.put(k, v);
            }
        });
        (out != null ? out : System.out).println(line);
    }

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
