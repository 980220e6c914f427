package io.appendsfeed.model.store;

import io.appendsfeed.model.StreamName;

/** An item that is not of the store format (an attribute missing or of the wrong type, a bad timestamp); nothing was changed. */
public class StoreFormatException extends RuntimeException {

    private final StreamName stream;
    private final long rangeKey;

    public StoreFormatException(StreamName stream, long rangeKey, String problem) {
        this(stream, rangeKey, problem, null);
    }

    public StoreFormatException(StreamName stream, long rangeKey, String problem, Throwable cause) {
        super("item p=" + stream + ", i=" + rangeKey + " is not of the appendsfeed store format: " + problem
                + ". It was written by something else, or damaged; fix or remove the item", cause);
        this.stream = stream;
        this.rangeKey = rangeKey;
    }

    public StreamName stream() { return stream; }
    /** The item's range key {@code i}. */
    public long rangeKey() { return rangeKey; }
}
