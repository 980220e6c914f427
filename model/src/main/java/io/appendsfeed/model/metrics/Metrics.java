package io.appendsfeed.model.metrics;

/** Where the indexer and the reader report their figures; {@link #flush} ends a unit of work. Thread-safe, never throws. */
public interface Metrics {

    /** Measures nothing: callers check {@link #enabled()} and build no samples. */
    Metrics NONE = sample -> { };

    void record(Sample sample);

    default void flush() {
    }

    default boolean enabled() {
        return this != NONE;
    }
}
