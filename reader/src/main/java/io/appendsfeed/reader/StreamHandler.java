package io.appendsfeed.reader;

import io.appendsfeed.model.StreamName;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Handles the new events of one stream: called in stream order, never twice at once for one stream,
 * for different streams in parallel (so implementations must be thread-safe across streams).
 *
 * <p>At least once: after a crash or a lost lease, events handled since the last committed checkpoint
 * come again; a handler that knows how far it applied a stream can say so with {@link HandlerResult#reached(long)}.
 */
@FunctionalInterface
public interface StreamHandler {

    /**
     * @param stream the stream
     * @param events in index order, never empty; consecutive unless an event type filter left some out
     * @return {@link HandlerResult#handled()} when all events were applied, or the stream position reached
     * @throws Exception any failure: the stream is retried with backoff while others go on, and parked
     *         after {@link FeedReaderConfig#parkAfterAttempts()} tries; nothing of it is skipped
     */
    HandlerResult handle(StreamName stream, List<FeedEvent> events) throws Exception;

    /** What a {@link StreamHandler} reports after a call. */
    sealed interface HandlerResult {

        /** Every event of the call was applied. */
        record Handled() implements HandlerResult {}

        /**
         * The handler has applied its stream up to (not including) {@code nextIndex}: above the call's
         * last event, later events below it are skipped; inside the call's events, those from
         * {@code nextIndex} on come again; at or below its first event, the call counts as failed.
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
     * One event of a stream. With {@link FeedReaderConfig#loadBodies()} off, only {@code stream},
     * {@code index} and {@code type} are set; {@code meta} and the ids are null when the writer set none.
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
