package io.appendsfeed.indexer.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** How the CLI prints durations, times, rates and JSON. */
final class Formats {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Formats() {}

    /** {@code 0s}, {@code 850ms}, {@code 42s}, {@code 5m03s}, {@code 2h05m}, {@code 3d04h}. */
    static String duration(Duration d) {
        long ms = d.toMillis();
        long s = d.getSeconds();
        if (ms < 1000) {
            return ms == 0 ? "0s" : ms + "ms";
        }
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return String.format("%dm%02ds", s / 60, s % 60);
        }
        return s < 86_400 ? String.format("%dh%02dm", s / 3600, s % 3600 / 60) : String.format("%dd%02dh", s / 86_400, s % 86_400 / 3600);
    }

    /** ISO-8601 UTC to the second, or null. */
    static String time(Instant t) {
        return t == null ? null : t.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** Per second, as a whole number; 0 when no time passed. */
    static long rate(long count, Duration elapsed) {
        return count * 1000 / Math.max(1, elapsed.toMillis());
    }

    static ObjectNode object() {
        return JSON.createObjectNode();
    }

    static ArrayNode array() {
        return JSON.createArrayNode();
    }

    /** Pretty-printed for a document, or on one line for JSON lines. */
    static void printJson(PrintWriter out, Object node, boolean pretty) {
        try {
            out.println(pretty ? JSON.writer().with(SerializationFeature.INDENT_OUTPUT).writeValueAsString(node) : JSON.writeValueAsString(node));
            out.flush();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON output", e);
        }
    }
}
