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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** How the CLI prints: plain-text tables, JSON, durations and times. */
public final class Output {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Output() {}

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

    /** {@code 1 stream}, {@code 2 streams}. */
    static String plural(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    static ObjectNode object() {
        return JSON.createObjectNode();
    }

    static ArrayNode array() {
        return JSON.createArrayNode();
    }

    /** Pretty-printed for a document, or on one line for JSON lines. */
    static void json(PrintWriter out, Object node, boolean pretty) {
        try {
            out.println(pretty ? JSON.writer().with(SerializationFeature.INDENT_OUTPUT).writeValueAsString(node) : JSON.writeValueAsString(node));
            out.flush();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON output", e);
        }
    }

    /** The JSON document when {@code asJson}, else the table, or {@code none} when the table has no rows. */
    static void print(PrintWriter out, boolean asJson, Object json, Table table, String none) {
        if (asJson) {
            json(out, json, true);
        } else if (table.isEmpty()) {
            out.println(none);
        } else {
            table.print(out);
        }
    }

    /** A plain-text table: columns padded to their widest cell; headers ending in {@code >} right-aligned (numbers). */
    public static final class Table {
        private final List<String[]> rows = new ArrayList<>();
        private final boolean[] right;

        public Table(String... headers) {
            right = new boolean[headers.length];
            for (int i = 0; i < headers.length; i++) {
                right[i] = headers[i].endsWith(">");
            }
            rows.add(Arrays.stream(headers).map(h -> h.endsWith(">") ? h.substring(0, h.length() - 1) : h).toArray(String[]::new));
        }

        /** Null cells print as {@code -}. */
        public Table row(Object... cells) {
            rows.add(Arrays.stream(cells).map(c -> c == null ? "-" : c.toString()).toArray(String[]::new));
            return this;
        }

        boolean isEmpty() {
            return rows.size() == 1;
        }

        public void print(PrintWriter out) {
            int[] width = new int[right.length];
            rows.forEach(r -> Arrays.setAll(width, i -> Math.max(width[i], r[i].length())));
            for (String[] r : rows) {
                StringBuilder b = new StringBuilder();
                for (int i = 0; i < r.length; i++) {
                    String pad = " ".repeat(width[i] - r[i].length());
                    b.append(i == 0 ? "" : "  ").append(right[i] ? pad + r[i] : r[i] + pad);
                }
                out.println(b.toString().stripTrailing());
            }
        }
    }
}
