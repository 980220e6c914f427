package io.appendsfeed.indexer.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A plain-text table: columns padded to their widest cell, numbers right-aligned. */
public final class Table {

    private final List<String[]> rows = new ArrayList<>();
    private final boolean[] right;

    /** Headers ending in {@code >} are right-aligned (the marker is not printed). */
    public Table(String... headers) {
        right = new boolean[headers.length];
        String[] names = new String[headers.length];
        for (int i = 0; i < headers.length; i++) {
            right[i] = headers[i].endsWith(">");
            names[i] = right[i] ? headers[i].substring(0, headers[i].length() - 1) : headers[i];
        }
        rows.add(names);
    }

    /** Null cells print as {@code -}. @throws IllegalArgumentException when the cell count differs from the headers' */
    public Table row(Object... cells) {
        if (cells.length != right.length) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, the table " + right.length + " columns");
        }
        rows.add(Arrays.stream(cells).map(c -> c == null ? "-" : c.toString()).toArray(String[]::new));
        return this;
    }

    public boolean isEmpty() {
        return rows.size() == 1;
    }

    public void print(PrintWriter out) {
        int[] width = new int[right.length];
        for (String[] r : rows) {
            for (int i = 0; i < width.length; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        for (String[] r : rows) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                String pad = " ".repeat(width[i] - r[i].length());
                b.append(i == 0 ? "" : "  ").append(right[i] ? pad + r[i] : r[i] + pad);
            }
            out.println(b.toString().stripTrailing());
        }
        out.flush();
    }
}
