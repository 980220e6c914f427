package io.appendsfeed.model.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reports to a Micrometer registry: dimensions become tags and names get the prefix {@value #PREFIX}, e.g.
 * {@code appendsfeed.reader.lag.events{group=audit,partition=0}}. Micrometer is an optional dependency.
 */
public final class MicrometerMetrics implements Metrics {

    public static final String PREFIX = "appendsfeed.";

    private final MeterRegistry registry;
    /** Gauges read these; Micrometer keeps only a weak reference to a gauge's object. */
    private final Map<List<Object>, AtomicReference<Double>> levels = new ConcurrentHashMap<>();

    public MicrometerMetrics(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    public MeterRegistry registry() {
        return registry;
    }

    public String name(Metric metric) {
        return PREFIX + metric.name();
    }

    @Override
    public void record(Sample sample) {
        Tags tags = Tags.of(sample.dimensions().entrySet().stream().map(d -> Tag.of(d.getKey(), d.getValue())).toList());
        sample.values().forEach((m, v) -> {
            switch (m.kind()) {
                case COUNTER -> Counter.builder(name(m)).description(m.description()).baseUnit(baseUnit(m.unit()))
                        .tags(tags).register(registry).increment(v);
                case GAUGE -> levels.computeIfAbsent(List.of(m, tags), k -> {
                    AtomicReference<Double> level = new AtomicReference<>(0.0);
                    Gauge.builder(name(m), level, AtomicReference::get).description(m.description()).baseUnit(baseUnit(m.unit()))
                            .tags(tags).register(registry);
                    return level;
                }).set(v);
                case TIMER -> Timer.builder(name(m)).description(m.description()).tags(tags).register(registry)
                        .record(Math.round(v * 1_000_000), TimeUnit.NANOSECONDS);
            }
        });
    }

    private static String baseUnit(Metric.Unit unit) {
        return switch (unit) {
            case COUNT -> null;
            case MILLISECONDS -> "milliseconds";
            case CAPACITY_UNITS -> "capacity.units";
        };
    }
}
