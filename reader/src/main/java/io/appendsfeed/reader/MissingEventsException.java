package io.appendsfeed.reader;

import io.appendsfeed.model.StreamName;

/**
 * The store table returned fewer events of a stream than the feed promises, even with a strongly
 * consistent read: the reader will not hand over a gap. Treated as a failure of that stream
 * (retried, then parked), never skipped.
 */
public class MissingEventsException extends RuntimeException {

    private final StreamName stream;
    private final long expectedIndex;
    private final long actualIndex;

    /** @param actualIndex the index found instead, or -1 when the read ended before it */
    public MissingEventsException(StreamName stream, long expectedIndex, long actualIndex) {
        super("the feed lists event " + expectedIndex + " of " + stream + " but the store table "
                + (actualIndex < 0 ? "has no event there" : "returned event " + actualIndex + " instead")
                + " after a strongly consistent read; events may have been deleted from the store table");
        this.stream = stream;
        this.expectedIndex = expectedIndex;
        this.actualIndex = actualIndex;
    }

    public StreamName stream() { return stream; }
    public long expectedIndex() { return expectedIndex; }
    public long actualIndex() { return actualIndex; }
}
