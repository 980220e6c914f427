package io.appendsfeed.indexer.backfill;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Configuration of a {@link Backfill}; build with {@link #builder(String)}.
 *
 * @param storeTable the event-store table to scan (Streams on or off)
 * @param segments parallel Scan segments (DynamoDB's {@code TotalSegments}), one thread each
 * @param pageSize items per Scan page ({@code Limit})
 * @param maxItemsPerSecond a cap on items read per second over all segments, to spare the table's
 *                          read capacity; 0 for none
 * @param spansPerBatch spans per call to the indexer (the indexer splits them into writes of at most 64 KB)
 * @param maxRetries attempts per batch after a failure that may pass (throttling, conflicts with a
 *                   live indexer) before the backfill gives up
 * @param retryBackoff first wait before such a retry; doubles each time
 * @param progress told how far the backfill is, every {@code progressInterval} and once at the end
 *                 (from another thread); the default logs a line, the CLI draws its progress line
 * @param progressInterval how often {@code progress} is told
 */
public record BackfillConfig(String storeTable, int segments, int pageSize, int maxItemsPerSecond, int spansPerBatch,
                             int maxRetries, Duration retryBackoff, Consumer<BackfillProgress> progress,
                             Duration progressInterval) {

    public static final int DEFAULT_SEGMENTS = 4;
    /** DynamoDB returns at most 1 MB per page whatever the limit; without bodies that is thousands of items. */
    public static final int DEFAULT_PAGE_SIZE = 1000;
    public static final int DEFAULT_SPANS_PER_BATCH = 1000;
    public static final int DEFAULT_MAX_RETRIES = 10;
    public static final Duration RETRY_BACKOFF = Duration.ofMillis(200);
    public static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(10);
    /** DynamoDB's own limit on {@code TotalSegments}. */
    public static final int MAX_SEGMENTS = 1_000_000;

    public BackfillConfig {
        if (storeTable == null || storeTable.isBlank()) {
            throw new IllegalArgumentException("storeTable must be non-empty");
        }
        if (segments < 1 || segments > MAX_SEGMENTS) {
            throw new IllegalArgumentException("segments must be in [1, " + MAX_SEGMENTS + "], was " + segments);
        }
        if (pageSize < 1) {
            throw new IllegalArgumentException("pageSize must be >= 1, was " + pageSize);
        }
        if (maxItemsPerSecond < 0) {
            throw new IllegalArgumentException("maxItemsPerSecond must be >= 0 (0: no cap), was " + maxItemsPerSecond);
        }
        if (spansPerBatch < 1) {
            throw new IllegalArgumentException("spansPerBatch must be >= 1, was " + spansPerBatch);
        }
        if (maxRetries < 0) {
            throw new IllegalArgumentException("maxRetries must be >= 0, was " + maxRetries);
        }
        if (retryBackoff == null || retryBackoff.isNegative() || progressInterval == null || progressInterval.isNegative()
                || progressInterval.isZero()) {
            throw new IllegalArgumentException("retryBackoff must be >= 0 and progressInterval > 0");
        }
        Objects.requireNonNull(progress, "progress");
    }

    public static Builder builder(String storeTable) {
        return new Builder(storeTable);
    }

    public Builder toBuilder() {
        return new Builder(storeTable).segments(segments).pageSize(pageSize).maxItemsPerSecond(maxItemsPerSecond)
                .spansPerBatch(spansPerBatch).maxRetries(maxRetries).retryBackoff(retryBackoff).progress(progress)
                .progressInterval(progressInterval);
    }

    public static final class Builder {
        private final String storeTable;
        private int segments = DEFAULT_SEGMENTS;
        private int pageSize = DEFAULT_PAGE_SIZE;
        private int maxItemsPerSecond = 0;
        private int spansPerBatch = DEFAULT_SPANS_PER_BATCH;
        private int maxRetries = DEFAULT_MAX_RETRIES;
        private Duration retryBackoff = RETRY_BACKOFF;
        private Consumer<BackfillProgress> progress = BackfillProgress::log;
        private Duration progressInterval = PROGRESS_INTERVAL;

        private Builder(String storeTable) {
            this.storeTable = storeTable;
        }

        public Builder segments(int v) { this.segments = v; return this; }
        public Builder pageSize(int v) { this.pageSize = v; return this; }
        public Builder maxItemsPerSecond(int v) { this.maxItemsPerSecond = v; return this; }
        public Builder spansPerBatch(int v) { this.spansPerBatch = v; return this; }
        public Builder maxRetries(int v) { this.maxRetries = v; return this; }
        public Builder retryBackoff(Duration v) { this.retryBackoff = v; return this; }
        public Builder progress(Consumer<BackfillProgress> v) { this.progress = v; return this; }
        public Builder progressInterval(Duration v) { this.progressInterval = v; return this; }

        public BackfillConfig build() {
            return new BackfillConfig(storeTable, segments, pageSize, maxItemsPerSecond, spansPerBatch, maxRetries,
                    retryBackoff, progress, progressInterval);
        }
    }
}
