package io.appendsfeed.indexer.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** How the CLI prints durations, times, counts and JSON. */
public final class Formats {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Formats() {}

    /** {@code 0s}, {@code 850ms}, {@code 42s}, {@code 5m03s}, {@code 2h05m}, {@code 3d04h}. */
    public static String duration(Duration d) {
        if (d == null) {
            return null;
        }
        long ms = d.toMillis();
        if (ms == 0) {
            return "0s";
        }
        if (ms < 1000) {
            return ms + "ms";
        }
        long s = d.getSeconds();
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return String.format("%dm%02ds", s / 60, s % 60);
        }
        if (s < 86_400) {
            return String.format("%dh%02dm", s / 3600, s % 3600 / 60);
        }
        return String.format("%dd%02dh", s / 86_400, s % 86_400 / 3600);
    }

    /** ISO-8601 UTC to the second, or null. */
    public static String time(Instant t) {
        return t == null ? null : t.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    public static ObjectNode object() {
        return JSON.createObjectNode();
    }

    /** Pretty-printed, for a document. */
    public static void printJson(PrintWriter out, Object node) {
        try {
            out.println(JSON.writer().with(SerializationFeature.INDENT_OUTPUT).writeValueAsString(node));
            out.flush();
        } catch (IOException e) {
            throw new IllegalStateException("cannot write JSON output", e);
        }
    }

    /** One line, for JSON lines. */
    public static void printJsonLine(PrintWriter out, Object node) {
        try {
            out.println(JSON.writeValueAsString(node));
            out.flush();
        } catch (IOException e) {
            throw new IllegalStateException("cannot write JSON output", e);
        }
    }

    /** Per second, as a whole number; 0 when no time passed. */
    public static long rate(long count, Duration elapsed) {
        long ms = Math.max(1, elapsed.toMillis());
        return count * 1000 / ms;
    }
}
