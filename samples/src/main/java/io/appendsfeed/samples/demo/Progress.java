package io.appendsfeed.samples.demo;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;

/** One line of progress: what has been written, indexed and handled so far, and how fast. */
final class Progress {

    private final PrintStream out;
    private final long started = System.nanoTime();
    private long lastWritten;
    private long lastAt = started;

    Progress(PrintStream out) {
        this.out = out;
    }

    Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - started);
    }

    void print(Workload workload, FeedTally feed, List<Reactor> reactors) {
        long now = System.nanoTime();
        long written = workload.written();
        double rate = (written - lastWritten) / Math.max(1e-9, (now - lastAt) / 1e9);
        lastWritten = written;
        lastAt = now;
        StringBuilder b = new StringBuilder(String.format("%6.1fs  written %,8d (%,6.0f/s)  indexed %,8d",
                (now - started) / 1e9, written, rate, feed.events()));
        for (Reactor r : reactors) {
            b.append(String.format(r.complete() ? "  %s %,8d" : "  %s %,d", r.group(), r.handled().total()));
        }
        b.append(String.format("  conflicts %,d  rejected %,d", workload.conflicts(), workload.rejected()));
        out.println(b);
    }
}
