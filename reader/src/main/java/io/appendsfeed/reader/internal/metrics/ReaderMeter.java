package io.appendsfeed.reader.internal.metrics;

import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.metrics.Metrics;
import io.appendsfeed.model.metrics.Sample;
import io.appendsfeed.model.store.CapacityMeter.Capacity;
import io.appendsfeed.model.store.CapacityMeter;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.FeedReader.PartitionLag;
import io.appendsfeed.reader.ParkedStreams.ParkedStream;
import io.appendsfeed.reader.ReaderMetrics;
import io.appendsfeed.reader.StreamHandler;
import io.appendsfeed.reader.internal.LogContext;
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
 * A reader's figures ({@link ReaderMetrics}) when metrics are on: each handler call ({@link #measure}),
 * read capacity per partition (the calling thread's, {@link LogContext#currentPartition()}), and every
 * interval each partition's lag and the parked streams ({@link #sample}), then a flush, so that an
 * EMF backend writes one line per partition and interval.
 */
public final class ReaderMeter implements CapacityMeter {

    private static final Logger LOG = LoggerFactory.getLogger(ReaderMeter.class);

    private final String group;
    private final Metrics metrics;
    private final Clock clock;
    /** Read units since the last sample, per partition; the null key is capacity not tied to one. */
    private final Map<PartitionId, Double> readUnits = new HashMap<>();

    public ReaderMeter(String group, Metrics metrics, Clock clock) {
        this.group = group;
        this.metrics = metrics;
        this.clock = clock;
    }

    @Override
    public void consumed(String operation, String table, Capacity capacity) {
        synchronized (readUnits) {
            readUnits.merge(LogContext.currentPartition(), capacity.readUnits(), Double::sum);
        }
    }

    /** The handler with each call measured: its time, the events it applied, whether it threw. */
    public StreamHandler measure(StreamHandler handler) {
        return (stream, events) -> {
            long started = System.nanoTime();
            HandlerResult result = null;
            try {
                result = handler.handle(stream, events);
                return result;
            } finally {
                // a handler call runs in its stream's log context, which names its partition
                Sample.Builder s = partition(clock.instant(), LogContext.currentPartition())
                        .value(ReaderMetrics.HANDLER_TIME, (System.nanoTime() - started) / 1e6);
                if (result == null) {
                    s.value(ReaderMetrics.HANDLER_FAILURES, 1);
                } else if (result instanceof HandlerResult.Reached r) {
                    s.value(ReaderMetrics.EVENTS_HANDLED, events.stream().filter(e -> e.index() < r.nextIndex()).count());
                } else {
                    s.value(ReaderMetrics.EVENTS_HANDLED, events.size());
                }
                record(s);
            }
        };
    }

    /** A stream was parked: counted in its partition. */
    public void parked(ParkedStream p) {
        record(partition(p.parkedAt(), p.partition()).value(ReaderMetrics.STREAMS_PARKED, 1));
    }

    private void record(Sample.Builder s) {
        try {
            metrics.record(s.build());
        } catch (RuntimeException e) {
            LOG.warn("group {}: metrics {} failed: {}", group, metrics, e.toString()); // the handler's work stands
        }
    }

    /**
     * Takes one sample and flushes. Never throws: what cannot be read now is logged and left out.
     *
     * @param lag the lag of the partitions held (may throw when the index cannot be read)
     * @param parked how many streams of the group are parked (may throw likewise)
     * @param stopped include partitions no longer read (on close: their last lag)
     */
    public synchronized void sample(Supplier<List<PartitionLag>> lag, IntSupplier parked, boolean stopped) {
        Instant now = clock.instant();
        Map<PartitionId, Sample.Builder> samples = new HashMap<>(); // the null key: the group's own sample
        try {
            for (PartitionLag l : lag.get()) {
                if (l.tail() != null && (stopped || l.state() != PartitionLag.State.STOPPED)) {
                    samples.put(l.partition(), partition(now, l.partition()).value(ReaderMetrics.LAG_EVENTS, l.eventsBehind())
                            .value(ReaderMetrics.LAG_AGE, l.oldestUnhandledAge().toMillis()));
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("group {}: lag not sampled, the index could not be read: {}", group, e.toString());
        }
        try {
            samples.put(null, partition(now, null).value(ReaderMetrics.PARKED, parked.getAsInt()));
        } catch (RuntimeException e) {
            LOG.warn("group {}: parked streams not counted, the parked store could not be read: {}", group, e.toString());
        }
        synchronized (readUnits) {
            readUnits.forEach((p, units) -> samples.computeIfAbsent(p, x -> partition(now, x)).value(ReaderMetrics.RCU, units));
            readUnits.clear();
        }
        try {
            samples.values().forEach(b -> metrics.record(b.build()));
            metrics.flush();
        } catch (RuntimeException e) {
            LOG.warn("group {}: metrics {} failed: {}", group, metrics, e.toString());
        }
    }

    /** A sample with the group's dimension, and the partition's when {@code p} is not null. */
    private Sample.Builder partition(Instant now, PartitionId p) {
        Sample.Builder s = Sample.at(now).dimension(ReaderMetrics.GROUP, group);
        return p == null ? s : s.dimension(ReaderMetrics.PARTITION, String.valueOf(p.value()));
    }
}
