package io.appendsfeed.samples.demo;

import io.appendsfeed.indexer.IndexerMetrics;
import io.appendsfeed.model.metrics.Metric;
import io.appendsfeed.model.metrics.MicrometerMetrics;
import io.appendsfeed.reader.ReaderMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.search.Search;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The demo's figures as a dashboard shows them, read back from the Micrometer registry the indexer and readers report to. */
final class MetricsReport {

    private final MicrometerMetrics metrics;
    private final MeterRegistry registry;

    MetricsReport(MicrometerMetrics metrics) {
        this.metrics = metrics;
        this.registry = metrics.registry();
    }

    /** Whether every partition of every group has reported a lag of zero (the readers sample every second). */
    boolean lagSampledAtZero(List<String> groups, int partitions) {
        for (String g : groups) {
            for (int p = 0; p < partitions; p++) {
                Gauge gauge = find(ReaderMetrics.LAG_EVENTS, g, Integer.toString(p)).gauge();
                if (gauge == null || gauge.value() != 0) {
                    return false;
                }
            }
        }
        return true;
    }

    void print(PrintStream out, List<String> groups, int partitions) {
        out.println();
        out.println("Metrics (read back from the Micrometer registry the indexer and the readers report to; in AWS the same"
                + " figures are EMF lines in CloudWatch, namespace appendsfeed)");
        Timer batches = find(IndexerMetrics.BATCH_TIME, null, null).timer();
        long accepted = (long) sum(IndexerMetrics.ACCEPTED, null, null);
        double wcu = sum(IndexerMetrics.WCU, null, null);
        out.printf("  indexer  %,d batches (%s: mean %.1f ms, max %.1f ms); %,d records, %,d skipped, %,d spans;"
                        + " %,d events accepted, %,d duplicates, %,d conflicts, %,d epochs closed%n",
                batches == null ? 0 : batches.count(), IndexerMetrics.BATCH_TIME.name(),
                batches == null ? 0 : batches.mean(TimeUnit.MILLISECONDS), batches == null ? 0 : batches.max(TimeUnit.MILLISECONDS),
                (long) sum(IndexerMetrics.RECORDS, null, null), (long) sum(IndexerMetrics.SKIPPED, null, null),
                (long) sum(IndexerMetrics.SPANS, null, null), accepted, (long) sum(IndexerMetrics.DUPLICATES, null, null),
                (long) sum(IndexerMetrics.CONFLICTS, null, null), (long) sum(IndexerMetrics.EPOCHS_CLOSED, null, null));
        Gauge age = find(IndexerMetrics.RECORD_AGE, null, null).gauge();
        out.printf("           %,.1f WCU (%.3f per event), %,.1f RCU; %s at the last batch %s%n", wcu,
                accepted == 0 ? 0 : wcu / accepted, sum(IndexerMetrics.RCU, null, null), IndexerMetrics.RECORD_AGE.name(),
                age == null ? "not reported" : String.format("%,.0f ms (DynamoDB Local truncates ApproximateCreationDateTime"
                        + " to the minute: read it as up to 60 s too old)", age.value()));
        out.printf("  %-8s %-9s %-10s %10s %9s %9s %8s %7s  %s%n", "reader", "group", "partition", "handled", "calls",
                "mean ms", "failures", "parked", "lag (events, age)");
        for (String g : groups) {
            Gauge parked = registry.find(metrics.name(ReaderMetrics.PARKED)).tag(ReaderMetrics.GROUP, g).gauge();
            for (int p = 0; p < partitions; p++) {
                String part = Integer.toString(p);
                Timer calls = find(ReaderMetrics.HANDLER_TIME, g, part).timer();
                out.printf("  %-8s %-9s %-10s %,10d %,9d %9.2f %,8d %7s  %s, %s ms%n", "", g, part,
                        (long) sum(ReaderMetrics.EVENTS_HANDLED, g, part), calls == null ? 0 : calls.count(),
                        calls == null ? 0 : calls.mean(TimeUnit.MILLISECONDS), (long) sum(ReaderMetrics.HANDLER_FAILURES, g, part),
                        parked == null ? "-" : String.format("%.0f", parked.value()),
                        gauge(ReaderMetrics.LAG_EVENTS, g, part), gauge(ReaderMetrics.LAG_AGE, g, part));
            }
        }
    }

    /** The meters of {@code m}, of one group's partition when {@code group} is given. */
    private Search find(Metric m, String group, String partition) {
        Search search = registry.find(metrics.name(m));
        return group == null ? search : search.tag(ReaderMetrics.GROUP, group).tag(ReaderMetrics.PARTITION, partition);
    }

    private double sum(Metric m, String group, String partition) {
        return find(m, group, partition).counters().stream().mapToDouble(Counter::count).sum();
    }

    private String gauge(Metric m, String group, String partition) {
        Gauge g = find(m, group, partition).gauge();
        return g == null ? "-" : String.format("%,.0f", g.value());
    }
}
