package io.appendsfeed.samples.eventsourcing;

import io.appendsfeed.model.StreamName;

/** Other writers kept winning: every attempt to append to the stream met a newer version. Nothing was written. */
public class TooManyConflictsException extends RuntimeException {

    private final StreamName stream;
    private final int attempts;

    public TooManyConflictsException(StreamName stream, int attempts) {
        super("gave up on " + stream + " after " + attempts + " attempts, each beaten by another writer;"
                + " nothing was written. Retry later, or spread the load over more streams");
        this.stream = stream;
        this.attempts = attempts;
    }

    public StreamName stream() { return stream; }
    public int attempts() { return attempts; }
}
