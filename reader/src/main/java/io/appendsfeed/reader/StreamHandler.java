package io.appendsfeed.reader;

import io.appendsfeed.model.StreamName;
import java.util.List;

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
}
