package io.appendsfeed.samples.demo;

import io.appendsfeed.model.metrics.MicrometerMetrics;
import io.appendsfeed.reader.ReaderMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** The demo's figures read back from the Micrometer registry the indexer and the readers report to, as a dashboard lists them. */
final class MetricsReport {

    private MetricsReport() {
    }

    /** Whether each of {@code partitions} of each group has sampled a lag of zero (the readers sample every second). */
    static boolean lagSampledAtZero(MicrometerMetrics metrics, int groupsTimesPartitions) {
        Collection<Gauge> lags = metrics.registry().find(metrics.name(ReaderMetrics.LAG_EVENTS)).gauges();
        return lags.size() == groupsTimesPartitions && lags.stream().allMatch(g -> g.value() == 0);
    }

    /** One line per metric: its value, per {@code group/partition} where the readers tag it so. */
    static void print(MicrometerMetrics metrics, PrintStream out) {
        out.println();
        out.println("Metrics (read back from the Micrometer registry the indexer and the readers report to; in AWS the same"
                + " figures are EMF lines in CloudWatch)");
        Map<String, List<String>> byName = new TreeMap<>();
        for (Meter m : metrics.registry().getMeters()) {
            String tags = m.getId().getTags().stream().filter(t -> t.getKey().equals(ReaderMetrics.GROUP)
                    || t.getKey().equals(ReaderMetrics.PARTITION)).map(Tag::getValue).collect(Collectors.joining("/"));
            byName.computeIfAbsent(m.getId().getName(), n -> new ArrayList<>()).add((tags.isEmpty() ? "" : tags + " ") + value(m));
        }
        byName.forEach((name, values) -> out.printf("  %-36s %s%n", name, String.join("  ", values.stream().sorted().toList())));
    }

    private static String value(Meter m) {
        if (m instanceof Timer t) {
            return String.format("%,d (mean %.1f ms)", t.count(), t.mean(TimeUnit.MILLISECONDS));
        }
        if (m instanceof Counter c) {
            return String.format("%,.0f", c.count());
        }
        return m instanceof Gauge g ? String.format("%,.0f", g.value()) : m.getId().getType().name();
    }
}
