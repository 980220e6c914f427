package io.appendsfeed.model.store;

import io.appendsfeed.model.StreamName;

/** An append whose item would pass DynamoDB's 400 KB limit; refused before anything was written. */
public class ItemTooLargeException extends RuntimeException {

    private final StreamName stream;
    private final long bytes;
    private final long limit;

    public ItemTooLargeException(StreamName stream, long bytes, long limit, String advice) {
        super("append to " + stream + " needs an item of " + bytes + " bytes, over DynamoDB's limit of " + limit
                + " bytes; nothing was written. " + advice);
        this.stream = stream;
        this.bytes = bytes;
        this.limit = limit;
    }

    public StreamName stream() { return stream; }
    public long bytes() { return bytes; }
    public long limit() { return limit; }
}
