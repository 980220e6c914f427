package io.appendsfeed.reader.internal.metrics;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Partitioner;
import io.appendsfeed.model.metrics.Metrics;
import io.appendsfeed.model.metrics.Sample;
import io.appendsfeed.reader.FeedEvent;
import io.appendsfeed.reader.HandlerResult;
import io.appendsfeed.reader.ReaderMetrics;
import io.appendsfeed.reader.StreamHandler;
import io.appendsfeed.reader.internal.LogContext;
import java.time.Clock;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * The user's handler with each call measured: its time, the events it applied, whether it threw.
 * Installed only when metrics are on.
 */
public final class MeteredHandler implements StreamHandler {

    private final StreamHandler next;
    private final String group;
    private final Metrics metrics;
    private final Clock clock;
    private final IntSupplier partitions;
    private volatile int partitionCount;

    /** @param partitions the feed's partition count (read once, when a call's partition is not known otherwise) */
    public MeteredHandler(StreamHandler next, String group, Metrics metrics, Clock clock, IntSupplier partitions) {
        this.next = next;
        this.group = group;
        this.metrics = metrics;
        this.clock = clock;
        this.partitions = partitions;
    }

    @Override
    public HandlerResult handle(StreamName stream, List<FeedEvent> events) throws Exception {
        long started = System.nanoTime();
        HandlerResult result = null;
        try {
            result = next.handle(stream, events);
            return result;
        } finally {
            report(stream, events, result, (System.nanoTime() - started) / 1e6);
        }
    }

    private void report(StreamName stream, List<FeedEvent> events, HandlerResult result, double millis) {
        Sample.Builder s = Sample.at(clock.instant()).dimension(ReaderMetrics.GROUP, group)
                .dimension(ReaderMetrics.PARTITION, String.valueOf(partitionOf(stream).value()))
                .value(ReaderMetrics.HANDLER_TIME, millis);
        if (result == null) {
            s.value(ReaderMetrics.HANDLER_FAILURES, 1);
        } else {
            long applied = events.size();
            if (result instanceof HandlerResult.Reached r) {
                applied = events.stream().filter(e -> e.index() < r.nextIndex()).count();
            }
            s.value(ReaderMetrics.EVENTS_HANDLED, applied);
        }
        try {
            metrics.record(s.build());
        } catch (RuntimeException e) {
            // the handler's work stands whatever the metrics do
            org.slf4j.LoggerFactory.getLogger(MeteredHandler.class).warn("metrics {} failed: {}", metrics, e.toString());
        }
    }

    private PartitionId partitionOf(StreamName stream) {
        PartitionId current = LogContext.currentPartition();
        if (current != null) {
            return current;
        }
        if (partitionCount == 0) {
            partitionCount = partitions.getAsInt();
        }
        return Partitioner.route(stream, partitionCount);
    }
}
