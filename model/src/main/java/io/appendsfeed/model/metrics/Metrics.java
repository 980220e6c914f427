package io.appendsfeed.model.metrics;

/**
 * Where the indexer and the reader report their figures: {@link EmfMetrics} (CloudWatch EMF lines on
 * stdout, for Lambda), {@link MicrometerMetrics}, or {@link #NONE}. Callers {@link #record} every
 * occurrence and {@link #flush} at the end of a unit of work (the indexer after each batch, the reader
 * at each metrics interval). Implementations must be thread-safe and should not throw.
 */
public interface Metrics {

    /** Measures nothing; callers check {@link #enabled()} and skip building samples. */
    Metrics NONE = sample -> { };

    void record(Sample sample);

    /** The end of a unit of work: backends that batch write what they hold. */
    default void flush() {
    }

    /** False only for {@link #NONE}: callers then build no samples at all. */
    default boolean enabled() {
        return this != NONE;
    }
}
