package io.appendsfeed.indexer.backfill;

import java.io.PrintStream;
import java.util.function.Consumer;

/** Draws a {@link Backfill}'s progress as one line redrawn in place, for a terminal. */
public final class ProgressBar implements Consumer<BackfillProgress> {

    private static final int WIDTH = 30;
    private final PrintStream out;

    public ProgressBar(PrintStream out) {
        this.out = out;
    }

    @Override
    public synchronized void accept(BackfillProgress p) {
        int pct = p.percent();
        int filled = pct < 0 ? 0 : pct * WIDTH / 100;
        String bar = pct < 0 ? "-".repeat(WIDTH) : "#".repeat(filled) + ".".repeat(WIDTH - filled);
        out.print("\r[" + bar + "] " + p + "   ");
        if (p.done()) {
            out.println();
        }
        out.flush();
    }
}
