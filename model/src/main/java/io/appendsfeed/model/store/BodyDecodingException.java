package io.appendsfeed.model.store;

import io.appendsfeed.model.StreamName;

/** A stored body that cannot be decoded (an unknown encoding, corrupt bytes), naming where it sits; nothing was changed. */
public class BodyDecodingException extends RuntimeException {

    private final StreamName stream;
    private final long index;
    private final String field;
    private final int encoding;

    /**
     * @param index the event's index (for an unfold: the version it was written at)
     * @param field where the body sits, e.g. {@code e.d} (event data) or {@code u.m} (unfold meta)
     */
    public BodyDecodingException(StreamName stream, long index, String field, int encoding, String problem, Throwable cause) {
        super("cannot decode " + field + " of " + stream + " at index " + index + " (encoding " + encoding + "): "
                + problem + ". Readable encodings are 0 (UTF-8 JSON), 1 (raw deflate) and 2 (Brotli); "
                + "the item was written by a writer this client does not understand, or is damaged", cause);
        this.stream = stream;
        this.index = index;
        this.field = field;
        this.encoding = encoding;
    }

    public StreamName stream() { return stream; }
    public long index() { return index; }
    public String field() { return field; }
    public int encoding() { return encoding; }
}
