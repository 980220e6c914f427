package io.appendsfeed.samples.demo;

import io.appendsfeed.samples.bank.InMemoryOutbox;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;

/** The demo's final report. */
final class Summary {

    private Summary() {}

    static void print(PrintStream out, DemoOptions o, Workload workload, FeedTally feed, List<Reactor> reactors,
                      InMemoryOutbox outbox, Duration writing, Duration caughtUpAfter, Duration total, Verdict verdict) {
        double seconds = Math.max(1e-9, writing.toNanos() / 1e9);
        out.println();
        out.printf("Summary (%.1f s in all)%n", total.toNanos() / 1e9);
        out.printf("  wrote    %,d events to %,d accounts in %.1f s: %,.0f events/s (%,d commands by %d writers;"
                        + " %,d rejected by the overdraft limit; %,d conflicts retried)%n",
                workload.written(), workload.tally().perStream().size(), seconds, workload.written() / seconds,
                workload.commands(), o.writers, workload.rejected(), workload.conflicts());
        out.printf("  indexed  %,d events into %d partition(s), %s%n", feed.events(), o.partitions,
                caughtUpAfter == null ? "NOT caught up within --timeout " + o.timeout
                        : String.format("all in the feed and handled %.1f s after the last write", caughtUpAfter.toNanos() / 1e9));
        for (Reactor r : reactors) {
            out.printf("  handled  %-9s %,d %s (%,d delivered again after a retry or restart)%n", r.group(),
                    r.handled().total(), r.complete() ? "events" : "Overdrawn events", r.handled().repeats());
        }
        out.printf("  notifier published %,d overdraft notifications (%,d Overdrawn events in the store; %,d duplicates refused)%n",
                outbox.published().size(), verdict.overdrawnInStore(), outbox.duplicates());
        out.printf("  balances query table holds %,d accounts%n", verdict.balanceRows());
        out.println();
        out.println("Check: written = stored = indexed = handled (audit, balances), per stream;"
                + " one notification per Overdrawn event; balance table = fold of the store");
        out.print(verdict.report().render(10));
        out.println(verdict.report().agrees() ? "RESULT: OK" : "RESULT: MISMATCH (exit code 1)");
    }
}
