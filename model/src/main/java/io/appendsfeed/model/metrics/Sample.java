package io.appendsfeed.model.metrics;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** Figures taken together about one thing (a batch, a handler call); dimensions from the broadest to the finest. */
public record Sample(Instant time, Map<String, String> dimensions, Map<Metric, Double> values) {

    public Sample {
        Objects.requireNonNull(time, "time");
        dimensions = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(dimensions, "dimensions")));
        dimensions.forEach((k, v) -> {
            if (k == null || k.isBlank() || v == null || v.isBlank()) {
                throw new IllegalArgumentException("dimension names and values must be non-empty, was " + k + "=" + v);
            }
        });
        values = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(values, "values")));
        if (values.isEmpty()) {
            throw new IllegalArgumentException("a sample needs at least one value");
        }
        values.forEach((m, v) -> {
            if (m == null || v == null || !Double.isFinite(v)) {
                throw new IllegalArgumentException("metric " + m + " has no finite value: " + v);
            }
        });
    }

    public static Builder at(Instant time) {
        return new Builder(time);
    }

    public static final class Builder {
        private final Instant time;
        private final Map<String, String> dimensions = new LinkedHashMap<>();
        private final Map<Metric, Double> values = new LinkedHashMap<>();

        private Builder(Instant time) {
            this.time = time;
        }

        public Builder dimension(String name, String value) {
            dimensions.put(name, value);
            return this;
        }

        public Builder value(Metric metric, double value) {
            values.put(metric, value);
            return this;
        }

        public Sample build() {
            return new Sample(time, dimensions, values);
        }
    }
}
