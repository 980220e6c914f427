package io.appendsfeed.samples.eventsourcing;

import io.appendsfeed.model.StreamName;

/** A stored event whose type, or body, the category's codec does not understand. */
public class UnknownEventException extends RuntimeException {

    private final StreamName stream;
    private final long index;
    private final String type;

    public UnknownEventException(StreamName stream, long index, String type, String problem, Throwable cause) {
        super("event " + stream + "@" + index + " of type '" + type + "' cannot be decoded: " + problem, cause);
        this.stream = stream;
        this.index = index;
        this.type = type;
    }

    public StreamName stream() { return stream; }
    public long index() { return index; }
    public String type() { return type; }
}
