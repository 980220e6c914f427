package io.appendsfeed.reader.internal.metrics;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.metrics.Metrics;
import io.appendsfeed.model.metrics.Sample;
import io.appendsfeed.reader.ParkedStream;
import io.appendsfeed.reader.ParkedStreams;
import io.appendsfeed.reader.ReaderMetrics;
import java.time.Clock;
import java.util.List;

/** The parked store, counting each stream parked (once it is durably recorded). */
public final class MeteredParkedStreams implements ParkedStreams {

    private final ParkedStreams next;
    private final Metrics metrics;
    private final Clock clock;

    public MeteredParkedStreams(ParkedStreams next, Metrics metrics, Clock clock) {
        this.next = next;
        this.metrics = metrics;
        this.clock = clock;
    }

    @Override
    public void park(ParkedStream parked) {
        next.park(parked);
        try {
            metrics.record(Sample.at(clock.instant()).dimension(ReaderMetrics.GROUP, parked.group())
                    .dimension(ReaderMetrics.PARTITION, String.valueOf(parked.partition().value()))
                    .value(ReaderMetrics.STREAMS_PARKED, 1).build());
        } catch (RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(MeteredParkedStreams.class).warn("metrics {} failed: {}", metrics, e.toString());
        }
    }

    @Override
    public boolean release(String group, StreamName stream, String by) {
        return next.release(group, stream, by);
    }

    @Override
    public List<ParkedStream> list(String group) {
        return next.list(group);
    }
}
