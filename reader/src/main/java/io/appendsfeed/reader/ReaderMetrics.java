package io.appendsfeed.reader;

import io.appendsfeed.model.metrics.Metric;
import io.appendsfeed.model.metrics.Metric.Unit;
import java.util.List;

/**
 * What a {@link FeedReader} reports to {@link FeedReaderConfig#metrics()}. Dimensions:
 * {@value #GROUP} and {@value #PARTITION} (the group alone for {@link #PARKED}, and for capacity
 * not tied to a partition). Handler figures are recorded per call; lag, parked streams and
 * capacity every {@link FeedReaderConfig#lagLogInterval()} and on close. The README's table
 * lists the same.
 */
public final class ReaderMetrics {

    /** Dimension: the consumer group. */
    public static final String GROUP = "group";
    /** Dimension: the partition. */
    public static final String PARTITION = "partition";

    public static final Metric LAG_EVENTS = Metric.gauge("reader.lag.events", Unit.COUNT,
            "epoch events between what the group has handled and the partition's tail");
    public static final Metric LAG_AGE = Metric.gauge("reader.lag.age", Unit.MILLISECONDS,
            "how long ago the oldest epoch event not yet handled was indexed; 0 when caught up");
    public static final Metric EVENTS_HANDLED = Metric.counter("reader.events.handled", Unit.COUNT,
            "events the handler applied (calls that returned; a Reached result counts the events below it)");
    public static final Metric HANDLER_TIME = Metric.timer("reader.handler.time",
            "time of one handler call, failed or not (bodies are loaded before it, not in it)");
    public static final Metric HANDLER_FAILURES = Metric.counter("reader.handler.failures", Unit.COUNT,
            "handler calls that threw: each is retried with backoff, or parks its stream after parkAfterAttempts");
    public static final Metric STREAMS_PARKED = Metric.counter("reader.streams.parked", Unit.COUNT,
            "streams parked after failing parkAfterAttempts times in a row");
    public static final Metric PARKED = Metric.gauge("reader.parked", Unit.COUNT,
            "streams of the group parked now (from the parked store); each waits for feed parked release");
    public static final Metric RCU = Metric.counter("reader.rcu", Unit.CAPACITY_UNITS,
            "read capacity units the reader consumed reading epochs, the index and event bodies");

    /** Every metric above, in the README's order. */
    public static final List<Metric> ALL = List.of(LAG_EVENTS, LAG_AGE, EVENTS_HANDLED, HANDLER_TIME, HANDLER_FAILURES,
            STREAMS_PARKED, PARKED, RCU);

    private ReaderMetrics() {}
}
