package io.appendsfeed.reader.internal.metrics;

import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.metrics.Metrics;
import io.appendsfeed.model.metrics.Sample;
import io.appendsfeed.reader.PartitionLag;
import io.appendsfeed.reader.ReaderMetrics;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every interval (and once more on close): each partition's lag as gauges, the group's parked
 * streams, the read capacity consumed since the last time; then flushes the metrics, so that a
 * backend writing lines (EMF) writes one per partition and interval.
 */
public final class MetricsSampler {

    private static final Logger LOG = LoggerFactory.getLogger(MetricsSampler.class);

    private final String group;
    private final Metrics metrics;
    private final Clock clock;
    private final ReaderCapacity capacity;
    private final Supplier<List<PartitionLag>> lag;
    private final IntSupplier parked;

    /**
     * @param lag the lag of the partitions held (may throw when the index cannot be read)
     * @param parked how many streams of the group are parked (may throw likewise)
     */
    public MetricsSampler(String group, Metrics metrics, Clock clock, ReaderCapacity capacity,
                          Supplier<List<PartitionLag>> lag, IntSupplier parked) {
        this.group = group;
        this.metrics = metrics;
        this.clock = clock;
        this.capacity = capacity;
        this.lag = lag;
        this.parked = parked;
    }

    /**
     * Takes one sample and flushes. Never throws: what cannot be read now is logged and left out.
     *
     * @param stopped include partitions no longer read (on close: their last lag)
     */
    public synchronized void sample(boolean stopped) {
        try {
            Instant now = clock.instant();
            Map<PartitionId, Sample.Builder> byPartition = new HashMap<>();
            try {
                for (PartitionLag l : lag.get()) {
                    if (l.tail() == null || (!stopped && l.state() == PartitionLag.State.STOPPED)) {
                        continue;
                    }
                    byPartition.put(l.partition(), partition(now, l.partition())
                            .value(ReaderMetrics.LAG_EVENTS, l.eventsBehind())
                            .value(ReaderMetrics.LAG_AGE, l.oldestUnhandledAge().toMillis()));
                }
            } catch (RuntimeException e) {
                LOG.warn("group {}: lag not sampled, the index could not be read: {}", group, e.toString());
            }
            Sample.Builder groupLevel = null;
            try {
                groupLevel = Sample.at(now).dimension(ReaderMetrics.GROUP, group).value(ReaderMetrics.PARKED, parked.getAsInt());
            } catch (RuntimeException e) {
                LOG.warn("group {}: parked streams not counted, the parked store could not be read: {}", group, e.toString());
            }
            for (Map.Entry<PartitionId, Double> e : capacity.drain().entrySet()) {
                if (e.getKey() == ReaderCapacity.NONE) {
                    if (groupLevel == null) {
                        groupLevel = Sample.at(now).dimension(ReaderMetrics.GROUP, group);
                    }
                    groupLevel.value(ReaderMetrics.RCU, e.getValue());
                } else {
                    byPartition.computeIfAbsent(e.getKey(), p -> partition(now, p)).value(ReaderMetrics.RCU, e.getValue());
                }
            }
            byPartition.values().forEach(b -> metrics.record(b.build()));
            if (groupLevel != null) {
                metrics.record(groupLevel.build());
            }
            metrics.flush();
        } catch (RuntimeException e) {
            LOG.warn("group {}: metrics {} failed: {}", group, metrics, e.toString());
        }
    }

    private Sample.Builder partition(Instant now, PartitionId p) {
        return Sample.at(now).dimension(ReaderMetrics.GROUP, group).dimension(ReaderMetrics.PARTITION, String.valueOf(p.value()));
    }
}
