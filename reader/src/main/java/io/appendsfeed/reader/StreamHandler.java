package io.appendsfeed.reader;

import io.appendsfeed.model.StreamName;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Handles the new events of one stream. The reader calls it per stream in stream order, never
 * twice at once for the same stream, and for different streams in parallel (up to
 * {@link FeedReaderConfig#maxConcurrentStreams()}); implementations must be thread-safe across
 * streams.
 *
 * <p>Delivery is at least once: after a crash or a lost lease, events handled since the last
 * committed checkpoint are delivered again. A handler that records how far it has applied each
 * stream can return that position ({@link HandlerResult#reached(long)}) so that the reader skips
 * events the handler already applied.
 */
@FunctionalInterface
public interface StreamHandler {

    /**
     * @param stream the stream
     * @param events one or more events of {@code stream}, in index order, never empty. Indices are
     *               consecutive unless an event type filter left some out
     * @return {@link HandlerResult#handled()} when all events were applied, or the stream position
     *         reached
     * @throws Exception any failure: the reader retries this stream (same events, with backoff)
     *         while other streams go on; after {@link FeedReaderConfig#parkAfterAttempts()} tries
     *         the stream is parked (see {@link ParkedStreams}) and nothing of it is skipped
     */
    HandlerResult handle(StreamName stream, List<FeedEvent> events) throws Exception;

    /** What a {@link StreamHandler} reports after a call. */
    sealed interface HandlerResult {

        /** Every event of the call was applied. */
        record Handled() implements HandlerResult {}

        /**
         * The handler has applied its stream up to (not including) {@code nextIndex}. Above the
         * call's last event: later events below it are skipped (the handler already has them, e.g.
         * it read the stream itself or applied them before a crash). Inside the call's events: the
         * events from {@code nextIndex} on are handed over again. At or below the call's first event:
         * no progress, counted as a failed attempt.
         */
        record Reached(long nextIndex) implements HandlerResult {
            public Reached {
                if (nextIndex < 0) {
                    throw new IllegalArgumentException("nextIndex must be >= 0, was " + nextIndex);
                }
            }
        }

        static HandlerResult handled() {
            return new Handled();
        }

        static HandlerResult reached(long nextIndex) {
            return new Reached(nextIndex);
        }
    }

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
    record FeedEvent(StreamName stream, long index, String type, byte[] data, byte[] meta, Instant timestamp,
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
}
