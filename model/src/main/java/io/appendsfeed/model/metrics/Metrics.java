package io.appendsfeed.model.metrics;

/**
 * Where the indexer and the reader report their figures. Implementations: {@link EmfMetrics}
 * (CloudWatch Embedded Metric Format lines on stdout, for Lambda), {@link MicrometerMetrics}
 * (any Micrometer registry), {@link #NONE} (the default: nothing is measured, nothing allocated).
 *
 * <p>Callers {@link #record} every occurrence as it happens and {@link #flush} at the end of a
 * unit of work (the indexer after each batch, the reader at each metrics interval and on close),
 * so that backends that write lines write one per unit of work. Implementations must be
 * thread-safe and should not throw; callers log and carry on when they do.
 */
public interface Metrics {

    /** Measures nothing; callers check {@link #enabled()} and skip building samples. */
    Metrics NONE = new Metrics() {
        @Override
        public void record(Sample sample) {
        }

        @Override
        public boolean enabled() {
            return false;
        }

        @Override
        public String toString() {
            return "Metrics.NONE";
        }
    };

    void record(Sample sample);

    /** The end of a unit of work: backends that batch write what they hold. */
    default void flush() {
    }

    /** False only for {@link #NONE}: callers then build no samples at all. */
    default boolean enabled() {
        return true;
    }
}
