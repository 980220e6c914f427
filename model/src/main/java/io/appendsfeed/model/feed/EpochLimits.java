package io.appendsfeed.model.feed;

/**
 * When an epoch closes. It closes with the {@code Ingested} that reaches any limit, and the rest of
 * the batch goes on in the next epoch.
 *
 * @param maxEvents epoch events ({@code Ingested}s) before {@code Closed}; at most
 *                  {@value #MAX_EVENTS} so that {@code Closed} still has an offset below the
 *                  checkpoint encoding's 1,000,000
 * @param maxBytes bytes of {@code Ingested} bodies (compact JSON). A cold indexer reads the whole
 *                 active epoch, so this bounds what a cold start costs; it also bounds what a reader
 *                 reads per epoch
 * @param maxStreams distinct streams; bounds the indexer's memory per partition
 */
public record EpochLimits(int maxEvents, long maxBytes, int maxStreams) {

    /** Fixed by {@link Checkpoint#EPOCH_SIZE}: offsets 0..999,999, the last being {@code Closed}. */
    public static final int MAX_EVENTS = 999_999;
    public static final long DEFAULT_MAX_BYTES = 2L * 1024 * 1024;
    public static final int DEFAULT_MAX_STREAMS = 100_000;

    public static final EpochLimits DEFAULT = new EpochLimits(MAX_EVENTS, DEFAULT_MAX_BYTES, DEFAULT_MAX_STREAMS);

    public EpochLimits {
        if (maxEvents < 1 || maxEvents > MAX_EVENTS) {
            throw new IllegalArgumentException("maxEvents must be in [1, " + MAX_EVENTS + "], was " + maxEvents);
        }
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes must be >= 1, was " + maxBytes);
        }
        if (maxStreams < 1) {
            throw new IllegalArgumentException("maxStreams must be >= 1, was " + maxStreams);
        }
    }
}
