package io.appendsfeed.model.store;

import io.appendsfeed.model.StreamName;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The one client for the store format (DESIGN.md): appends with optimistic concurrency, calving,
 * unfolds, and reads forwards and backwards. Used for event-store tables and for the index table
 * (whose streams are the feed's epochs, index and checkpoints). Thread-safe.
 *
 * <p>API SKELETON: bodies are being implemented under the foundation issue.
 */
public final class StoreClient {

    private final DynamoDbClient dynamo;
    private final StoreConfig config;

    /** The caller owns {@code dynamo} and closes it. */
    public StoreClient(DynamoDbClient dynamo, StoreConfig config) {
        this.dynamo = dynamo;
        this.config = config;
    }

    public StoreConfig config() {
        return config;
    }

    public DynamoDbClient dynamo() {
        return dynamo;
    }

    /**
     * Appends events (and replaces the Tip's unfolds with none) if the stream is at {@code expected}.
     *
     * @return {@link AppendResult.Written}, or {@link AppendResult.Conflict} with the actual version
     * @throws IllegalArgumentException when the name is reserved (and the config does not allow it) or events is empty
     * @throws ItemTooLargeException when the events cannot fit one item; nothing was written
     */
    public AppendResult append(StreamName stream, Expected expected, List<EventData> events) {
        return append(stream, expected, events, List.of());
    }

    /** As {@link #append(StreamName, Expected, List)}, writing {@code unfolds} as the Tip's new unfolds. */
    public AppendResult append(StreamName stream, Expected expected, List<EventData> events, List<Unfold> unfolds) {
        throw new UnsupportedOperationException("skeleton");
    }

    /** Replaces the Tip's unfolds without appending events ({@code a = 0}); the stream must exist unless expected is version 0. */
    public AppendResult writeUnfolds(StreamName stream, Expected expected, List<Unfold> unfolds) {
        throw new UnsupportedOperationException("skeleton");
    }

    /** The Tip, or empty when the stream does not exist. */
    public Optional<Tip> readTip(StreamName stream, boolean consistent) {
        throw new UnsupportedOperationException("skeleton");
    }

    /** Events as {@code read} says, in its direction, fetched lazily one {@code Query} page at a time. */
    public Stream<StoredEvent> read(StreamName stream, Read read) {
        throw new UnsupportedOperationException("skeleton");
    }

    /** All of {@link #read(StreamName, Read)} in a list. */
    public List<StoredEvent> readAll(StreamName stream, Read read) {
        try (Stream<StoredEvent> s = read(stream, read)) {
            return s.toList();
        }
    }
}
