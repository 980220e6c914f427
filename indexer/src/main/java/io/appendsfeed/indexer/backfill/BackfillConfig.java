package io.appendsfeed.indexer.backfill;

/**
 * Configuration of a {@link Backfill}; start from {@link #of(String)}.
 *
 * @param storeTable the event-store table to scan (Streams on or off)
 * @param segments parallel Scan segments (DynamoDB's {@code TotalSegments}), or export files read at once; one thread each
 * @param maxItemsPerSecond a cap on items read per second over all segments, to spare the table's read capacity; 0 for none
 * @param spansPerBatch spans per call to the indexer (the indexer splits them into writes of at most 64 KB)
 */
public record BackfillConfig(String storeTable, int segments, int pageSize, int maxItemsPerSecond, int spansPerBatch) {

    public static final int DEFAULT_SEGMENTS = 4;
    public static final int DEFAULT_PAGE_SIZE = 1000;
    public static final int DEFAULT_SPANS_PER_BATCH = 1000;
    /** DynamoDB's own limit on {@code TotalSegments}. */
    public static final int MAX_SEGMENTS = 1_000_000;

    public BackfillConfig {
        if (storeTable == null || storeTable.isBlank()) {
            throw new IllegalArgumentException("storeTable must be non-empty");
        }
        if (segments < 1 || segments > MAX_SEGMENTS || pageSize < 1 || maxItemsPerSecond < 0 || spansPerBatch < 1) {
            throw new IllegalArgumentException("segments must be in [1, " + MAX_SEGMENTS + "], pageSize and spansPerBatch >= 1,"
                    + " maxItemsPerSecond >= 0 (0: no cap); were " + segments + ", " + pageSize + ", " + spansPerBatch + ", " + maxItemsPerSecond);
        }
    }

    /** The defaults: no cap on items per second. */
    public static BackfillConfig of(String storeTable) {
        return new BackfillConfig(storeTable, DEFAULT_SEGMENTS, DEFAULT_PAGE_SIZE, 0, DEFAULT_SPANS_PER_BATCH);
    }

    public BackfillConfig withSegments(int v) { return new BackfillConfig(storeTable, v, pageSize, maxItemsPerSecond, spansPerBatch); }
    public BackfillConfig withPageSize(int v) { return new BackfillConfig(storeTable, segments, v, maxItemsPerSecond, spansPerBatch); }
    public BackfillConfig withMaxItemsPerSecond(int v) { return new BackfillConfig(storeTable, segments, pageSize, v, spansPerBatch); }
    public BackfillConfig withSpansPerBatch(int v) { return new BackfillConfig(storeTable, segments, pageSize, maxItemsPerSecond, v); }
}
