package io.appendsfeed.samples.bench.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A plain-text table: a title, headers, rows; the first column left-aligned, the rest right-aligned. */
public final class Table {

    private final String title;
    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    public Table(String title, String... headers) {
        this.title = title;
        this.headers = List.of(headers);
    }

    public Table row(Object... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException("row of " + cells.length + " cells for " + headers.size() + " columns");
        }
        List<String> r = new ArrayList<>();
        for (Object c : cells) {
            r.add(format(c));
        }
        rows.add(r);
        return this;
    }

    public static String format(Object c) {
        if (c instanceof Double d) {
            double a = Math.abs(d);
            return String.format(Locale.ROOT, a >= 1000 ? "%,.0f" : a >= 10 ? "%.1f" : a >= 0.1 ? "%.2f" : "%.4f", d);
        }
        if (c instanceof Long || c instanceof Integer) {
            return String.format(Locale.ROOT, "%,d", ((Number) c).longValue());
        }
        return String.valueOf(c);
    }

    public String render() {
        int[] w = new int[headers.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = headers.get(i).length();
            for (List<String> r : rows) {
                w[i] = Math.max(w[i], r.get(i).length());
            }
        }
        StringBuilder sb = new StringBuilder(title).append('\n');
        line(sb, headers, w);
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < w.length; i++) {
            rule.append(i == 0 ? "" : "  ").append("-".repeat(w[i]));
        }
        sb.append(rule).append('\n');
        rows.forEach(r -> line(sb, r, w));
        return sb.toString();
    }

    private static void line(StringBuilder sb, List<String> cells, int[] w) {
        for (int i = 0; i < w.length; i++) {
            String c = cells.get(i);
            String pad = " ".repeat(w[i] - c.length());
            sb.append(i == 0 ? "" : "  ").append(i == 0 ? c + pad : pad + c);
        }
        sb.append('\n');
    }
}
