package io.appendsfeed.model.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.appendsfeed.model.metrics.EmfMetrics;
import io.appendsfeed.model.metrics.Metric;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Test support: an {@link EmfMetrics} writing to memory instead of stdout, and its lines read back
 * as JSON, as CloudWatch Logs would receive them.
 */
public final class EmfCapture {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final EmfMetrics metrics;

    public EmfCapture() {
        this.metrics = new EmfMetrics(new PrintStream(bytes, true, StandardCharsets.UTF_8), EmfMetrics.NAMESPACE, Map.of());
    }

    public EmfMetrics metrics() {
        return metrics;
    }

    /** Every line written so far, parsed. */
    public synchronized List<JsonNode> lines() {
        List<JsonNode> out = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (String line : bytes.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                try {
                    out.add(json.readTree(line));
                } catch (IOException e) {
                    throw new UncheckedIOException("not a JSON line: " + line, e);
                }
            }
        }
        return out;
    }

    /** The lines that carry {@code metric}. */
    public List<JsonNode> linesWith(Metric metric) {
        return lines().stream().filter(l -> l.has(metric.name())).toList();
    }

    /** The sum over every line of {@code metric}'s values (an array counts each element). */
    public double sum(Metric metric) {
        double total = 0;
        for (JsonNode l : linesWith(metric)) {
            JsonNode v = l.get(metric.name());
            if (v.isArray()) {
                for (JsonNode x : v) {
                    total += x.asDouble();
                }
            } else {
                total += v.asDouble();
            }
        }
        return total;
    }
}
