package io.appendsfeed.indexer.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain-text table: columns padded to their widest cell, numbers right-aligned. */
public final class Table {

    private final List<String> headers;
    private final boolean[] right;
    private final List<List<String>> rows = new ArrayList<>();

    /** Headers ending in {@code >} are right-aligned (the marker is not printed). */
    public Table(String... headers) {
        this.headers = new ArrayList<>();
        this.right = new boolean[headers.length];
        for (int i = 0; i < headers.length; i++) {
            right[i] = headers[i].endsWith(">");
            this.headers.add(right[i] ? headers[i].substring(0, headers[i].length() - 1) : headers[i]);
        }
    }

    /** @throws IllegalArgumentException when the row's cell count differs from the headers' */
    public Table row(Object... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, the table " + headers.size() + " columns");
        }
        List<String> r = new ArrayList<>();
        for (Object c : cells) {
            r.add(c == null ? "-" : c.toString());
        }
        rows.add(r);
        return this;
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    public void print(PrintWriter out) {
        int[] width = new int[headers.size()];
        for (int i = 0; i < width.length; i++) {
            width[i] = headers.get(i).length();
            for (List<String> r : rows) {
                width[i] = Math.max(width[i], r.get(i).length());
            }
        }
        line(out, headers, width);
        for (List<String> r : rows) {
            line(out, r, width);
        }
        out.flush();
    }

    private void line(PrintWriter out, List<String> cells, int[] width) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            String c = cells.get(i);
            boolean last = i == cells.size() - 1;
            String pad = " ".repeat(width[i] - c.length());
            b.append(right[i] ? pad + c : last ? c : c + pad);
            if (!last) {
                b.append("  ");
            }
        }
        out.println(b.toString().stripTrailing());
    }
}
