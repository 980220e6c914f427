package io.appendsfeed.indexer.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The CLI's one progress display, of a long step on stderr ({@code verify}'s scan and index walk,
 * {@code backfill}): on a terminal a bar redrawn in place (with a percentage when the total is known,
 * and the step's own figures); otherwise nothing while it runs, and one plain line when it ends, so
 * logs and captured output stay clean.
 */
final class ProgressLine implements AutoCloseable {

    private static final int BAR_WIDTH = 30;
    private static final Duration REDRAW_INTERVAL = Duration.ofMillis(200);

    private final PrintWriter err;
    private final String label;
    private final LongSupplier done;
    private final LongSupplier total;
    private final Supplier<String> detail;
    private final ScheduledExecutorService redraw;
    private final long started = System.nanoTime();

    /**
     * @param total the expected count as it becomes known, 0 (or less) while unknown
     * @param detail more figures for the line, e.g. {@code 1,200 events ingested}; empty for none
     */
    ProgressLine(PrintWriter err, boolean terminal, String label, LongSupplier done, LongSupplier total, Supplier<String> detail) {
        this.err = err;
        this.label = label;
        this.done = done;
        this.total = total;
        this.detail = detail;
        redraw = terminal ? Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "feed-progress");
            t.setDaemon(true);
            return t;
        }) : null;
        if (redraw != null) {
            redraw.scheduleAtFixedRate(this::draw, 0, REDRAW_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private synchronized void draw() {
        long n = done.getAsLong();
        long all = total.getAsLong();
        StringBuilder b = new StringBuilder("\r").append(label).append(' ');
        if (all > 0) {
            int filled = (int) Math.min(BAR_WIDTH, n * BAR_WIDTH / all);
            b.append('[').append("#".repeat(filled)).append(" ".repeat(BAR_WIDTH - filled)).append("] ")
                    .append(Math.min(100, n * 100 / all)).append("% ");
        }
        err.print(b.append(figures(n)).append("  "));
        err.flush();
    }

    private String figures(long n) {
        String more = detail.get();
        return n + " items" + (more.isEmpty() ? "" : ", " + more);
    }

    /** How long since it started. */
    Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - started);
    }

    @Override
    public synchronized void close() {
        if (redraw != null) {
            redraw.shutdownNow();
            draw();
            err.println();
        }
        err.println(label + ": " + figures(done.getAsLong()) + " in " + Formats.duration(elapsed()));
        err.flush();
    }
}
