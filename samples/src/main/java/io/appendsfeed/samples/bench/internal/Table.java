package io.appendsfeed.samples.bench.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A benchmark's table: a title, headers, rows of figures formatted for reading; printed by the CLI's {@code Table}. */
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

    /** Laid out by the feed CLI's table printer (the project's one), first column left, the rest right-aligned. */
    public String render() {
        String[] columns = new String[headers.size()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = i == 0 ? headers.get(i) : headers.get(i) + ">";
        }
        io.appendsfeed.indexer.cli.Table t = new io.appendsfeed.indexer.cli.Table(columns);
        rows.forEach(r -> t.row(r.toArray()));
        java.io.StringWriter out = new java.io.StringWriter();
        t.print(new java.io.PrintWriter(out));
        return title + '\n' + out;
    }
}
