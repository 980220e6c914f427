package io.appendsfeed.indexer;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.EpochWrite;

/**
 * A span starts after its stream's known next index, and the Tip no longer holds the missing
 * events: indexing it would leave a hole in the feed. Nothing of the span (nor of anything after it
 * in the batch for that partition) was written; what came before it was. Records were lost upstream
 * (Streams enabled late, a record rejected earlier, the indexer stopped for longer than the 24 h
 * retention): backfill the stream, or set {@link IndexerConfig#allowGaps()} to accept the gap.
 */
public class FeedGapException extends RuntimeException {

    private final StreamName stream;
    private final long expectedIndex;
    private final long actualIndex;

    public FeedGapException(StreamName stream, long expectedIndex, long actualIndex) {
        this(stream, expectedIndex, actualIndex, "gap in " + stream + ": the feed holds its events before index " + expectedIndex
                + " but the next span starts at " + actualIndex
                + "; events " + expectedIndex + ".." + (actualIndex - 1) + " were never delivered. Backfill the stream,"
                + " or set allowGaps to index past the gap");
    }

    private FeedGapException(StreamName stream, long expectedIndex, long actualIndex, String message) {
        super(message);
        this.stream = stream;
        this.expectedIndex = expectedIndex;
        this.actualIndex = actualIndex;
    }

    /**
     * The stream's first span in the feed starts at {@code actualIndex > 0}, and the event before it
     * is in none of the epochs that were open when it was written: it never reached the feed, and the
     * Tip does not hold what is missing. {@link #expectedIndex()} is -1: where the feed's copy of the
     * stream ends (if anywhere) is not known.
     */
    public static FeedGapException unplaced(StreamName stream, long actualIndex) {
        return new FeedGapException(stream, -1, actualIndex, "gap in " + stream + ": its span starts at " + actualIndex
                + ", but event " + (actualIndex - 1) + " is in none of the epochs open when it was written: it never reached"
                + " the feed, and the Tip does not hold all that is missing. Backfill the stream; if the store holds events from before"
                + " the feed began (indexed by a backfill), set storePredatesFeed; or set allowGaps to index past the gap");
    }

    /** The gap an epoch's decision stopped at (or let through), as an exception to throw or log. */
    public static FeedGapException of(EpochWrite.Gap gap) {
        return gap.unplaced() ? unplaced(gap.stream(), gap.actualIndex())
                : new FeedGapException(gap.stream(), gap.expectedIndex(), gap.actualIndex());
    }

    public StreamName stream() { return stream; }
    public long expectedIndex() { return expectedIndex; }
    public long actualIndex() { return actualIndex; }
}
