package io.appendsfeed.indexer;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.AppendsEpoch.EpochWrite;

/**
 * A span starts past its stream's next index in the feed and the Tip no longer holds the missing events.
 * Nothing from it on in the partition's batch was written. Backfill the stream, or set
 * {@link IndexerConfig#allowGaps()} to accept the gap.
 */
public class FeedGapException extends RuntimeException {

    private final StreamName stream;
    private final long expectedIndex;
    private final long actualIndex;

    public FeedGapException(StreamName stream, long expectedIndex, long actualIndex) {
        super("gap in " + stream + ": the feed holds its events before index " + expectedIndex + " but the next span starts at "
                + actualIndex + "; events " + expectedIndex + ".." + (actualIndex - 1) + " were never delivered. Backfill the"
                + " stream, or set allowGaps to index past the gap");
        this.stream = stream;
        this.expectedIndex = expectedIndex;
        this.actualIndex = actualIndex;
    }

    /** The gap an epoch's decision stopped at (or let through). */
    public static FeedGapException of(EpochWrite.Gap gap) {
        return new FeedGapException(gap.stream(), gap.expectedIndex(), gap.actualIndex());
    }

    public StreamName stream() { return stream; }
    public long expectedIndex() { return expectedIndex; }
    public long actualIndex() { return actualIndex; }
}
