package io.appendsfeed.indexer.cli;

import io.appendsfeed.indexer.cli.Formats;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The CLI's one progress display: a long step on stderr. On a terminal a bar redrawn in place
 * (with a percentage when the total is known, and the step's own figures); otherwise nothing
 * while it runs, and one plain line when it ends, so logs and captured output stay clean. Used by
 * {@code verify} (scan, index walk) and {@code backfill}.
 */
public final class ProgressLine implements AutoCloseable {

    private static final int BAR_WIDTH = 30;
    private static final Duration REDRAW_INTERVAL = Duration.ofMillis(200);

    private final PrintWriter err;
    private final boolean terminal;
    private final String label;
    private final LongSupplier done;
    private final LongSupplier total;
    private final Supplier<String> detail;
    private final ScheduledExecutorService redraw;
    private final long started = System.nanoTime();

    /** @param total the expected count, or 0 when unknown */
    public ProgressLine(PrintWriter err, boolean terminal, String label, LongSupplier done, long total) {
        this(err, terminal, label, done, () -> total, () -> "");
    }

    /**
     * @param total the expected count as it becomes known, 0 (or less) while unknown
     * @param detail more figures for the line, e.g. {@code 1,200 events ingested}; empty for none
     */
    public ProgressLine(PrintWriter err, boolean terminal, String label, LongSupplier done, LongSupplier total, Supplier<String> detail) {
        this.err = err;
        this.terminal = terminal;
        this.label = label;
        this.done = done;
        this.total = total;
        this.detail = detail;
        if (terminal) {
            redraw = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "feed-progress");
                t.setDaemon(true);
                return t;
            });
            redraw.scheduleAtFixedRate(this::draw, 0, REDRAW_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        } else {
            redraw = null;
        }
    }

    private synchronized void draw() {
        long n = done.getAsLong();
        long total = this.total.getAsLong();
        StringBuilder b = new StringBuilder("\r").append(label).append(' ');
        if (total > 0) {
            int filled = (int) Math.min(BAR_WIDTH, n * BAR_WIDTH / total);
            b.append('[').append("#".repeat(filled)).append(" ".repeat(BAR_WIDTH - filled)).append("] ")
                    .append(Math.min(100, n * 100 / total)).append("% ");
        }
        b.append(n).append(" items");
        String more = detail.get();
        if (!more.isEmpty()) {
            b.append(", ").append(more);
        }
        err.print(b.append("  "));
        err.flush();
    }

    /** How long since it started. */
    public Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - started);
    }

    @Override
    public synchronized void close() {
        if (redraw != null) {
            redraw.shutdownNow();
            draw();
            err.println();
        }
        String more = detail.get();
        err.println(label + ": " + done.getAsLong() + " items" + (more.isEmpty() ? "" : ", " + more) + " in " + Formats.duration(elapsed()));
        err.flush();
    }
}
