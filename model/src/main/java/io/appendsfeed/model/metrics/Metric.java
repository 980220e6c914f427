package io.appendsfeed.model.metrics;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A figure appendsfeed reports, named alike for every backend.
 *
 * @param name lower case, dot separated, e.g. {@code indexer.events.accepted}
 */
public record Metric(String name, Kind kind, Unit unit, String description) {

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9]*(\\.[a-z][a-z0-9]*)*");

    public enum Kind {
        /** Summed: what happened since the last value (events, units consumed). */
        COUNTER,
        /** The latest value wins: a level (lag, parked streams, age). */
        GAUGE,
        /** One duration per occurrence, in milliseconds; backends keep its distribution. */
        TIMER
    }

    public enum Unit {
        COUNT,
        MILLISECONDS,
        /** DynamoDB read or write capacity units, fractional (0.5 RCU per eventually consistent 4 KB). */
        CAPACITY_UNITS;

        public String cloudWatch() {
            return this == MILLISECONDS ? "Milliseconds" : "Count";
        }
    }

    public Metric {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("metric name '" + name + "' must be lower case words separated by dots, e.g. indexer.records");
        }
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(unit, "unit");
        if (kind == Kind.TIMER && unit != Unit.MILLISECONDS) {
            throw new IllegalArgumentException("timer " + name + " must be in milliseconds, was " + unit);
        }
        if (description == null || description.isBlank()) {
            throw new IllegalArgumentException("metric " + name + " needs a description");
        }
    }

    public static Metric counter(String name, Unit unit, String description) {
        return new Metric(name, Kind.COUNTER, unit, description);
    }

    public static Metric gauge(String name, Unit unit, String description) {
        return new Metric(name, Kind.GAUGE, unit, description);
    }

    public static Metric timer(String name, String description) {
        return new Metric(name, Kind.TIMER, Unit.MILLISECONDS, description);
    }
}
