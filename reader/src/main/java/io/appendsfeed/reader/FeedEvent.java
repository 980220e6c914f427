package io.appendsfeed.reader;

import io.appendsfeed.model.StreamName;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;

/**
 * One event of a stream as the reader hands it to a {@link StreamHandler}.
 *
 * <p>With {@link FeedReaderConfig#loadBodies()} off, only {@code stream}, {@code index} and
 * {@code type} are set (from the feed itself); {@code data}, {@code meta}, {@code timestamp} and
 * the ids are null. With bodies on, they are read from the store table; {@code meta} and the ids
 * are null when the writer did not set them.
 *
 * @param index the event's index in its stream (0 for the first event)
 */
public record FeedEvent(StreamName stream, long index, String type, byte[] data, byte[] meta, Instant timestamp,
                        String correlationId, String causationId) {

    public FeedEvent {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(type, "type");
        if (index < 0) {
            throw new IllegalArgumentException("event index must be >= 0, was " + index + " for " + stream);
        }
    }

    /** An event known from the feed only: stream, index and type. */
    public static FeedEvent typeOnly(StreamName stream, long index, String type) {
        return new FeedEvent(stream, index, type, null, null, null, null, null);
    }

    /** Whether the body was loaded. */
    public boolean hasBody() {
        return data != null;
    }

    /** The body as UTF-8 text, or null when not loaded. */
    public String dataText() {
        return data == null ? null : new String(data, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return stream + "@" + index + ":" + type;
    }
}
