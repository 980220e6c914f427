package io.appendsfeed.samples.demo;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/** Prints checkpoints the way {@code feed checkpoints} does: one line per group and partition. */
public final class CheckpointsView {

    private static final String FORMAT = "%-16s %9s %12s %14s %11s %9s  %s%n";

    private CheckpointsView() {}

    public static String render(List<CheckpointRow> rows) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(FORMAT, "GROUP", "PARTITION", "CHECKPOINT", "RAW", "LAG EVENTS", "LAG TIME", "LAST COMMITTED"));
        for (CheckpointRow r : rows) {
            b.append(String.format(FORMAT, r.group(), r.partition().value(), r.checkpoint().display(),
                    r.checkpoint().value(), String.format("%,d", r.lagEvents()), lagTime(r.lagTime()), committed(r.lastCommitted())));
        }
        return b.toString();
    }

    private static String lagTime(Duration d) {
        if (d == null) {
            return "-";
        }
        long ms = d.toMillis();
        return ms < 60_000 ? String.format("%.1fs", ms / 1000.0) : String.format("%dm%02ds", ms / 60_000, (ms / 1000) % 60);
    }

    private static String committed(Instant at) {
        return at == null ? "never" : at.truncatedTo(ChronoUnit.MILLIS).toString();
    }
}
