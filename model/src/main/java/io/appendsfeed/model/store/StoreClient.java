package io.appendsfeed.model.store;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.internal.Appender;
import io.appendsfeed.model.store.internal.MeteredDynamo;
import io.appendsfeed.model.store.internal.StreamReader;
import io.appendsfeed.model.store.internal.TipState;
import io.appendsfeed.model.store.internal.TipWrites;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The client of the store format, for event-store tables and the index table: appends with optimistic
 * concurrency, calving and unfolds, and reads. Thread-safe. An append to a stream whose Tip it knows is one
 * conditional write, else a consistent {@code GetItem} comes first. DynamoDB errors other than a failed
 * condition are thrown as the SDK's exceptions, after its retries.
 */
public final class StoreClient {

    private final DynamoDbClient dynamo;
    private final StoreConfig config;
    private final TipState.Cache cache;
    private final Appender appender;
    private final MeteredDynamo calls;

    /** The caller owns {@code dynamo} and closes it. */
    public StoreClient(DynamoDbClient dynamo, StoreConfig config) {
        this.dynamo = Objects.requireNonNull(dynamo, "dynamo");
        this.config = Objects.requireNonNull(config, "config");
        this.cache = new TipState.Cache(StoreConfig.TIP_CACHE_STREAMS);
        this.appender = new Appender(cache, config);
        this.calls = new MeteredDynamo(dynamo, config.table(), config.meter());
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
     * @return a {@link AppendResult.Conflict} carries the actual version ({@link Expected#any()}: only after 8 lost attempts)
     * @throws IllegalArgumentException when the name is reserved (and the config does not allow it) or events is empty
     * @throws ItemTooLargeException when the events cannot fit one item; nothing was written
     */
    public AppendResult append(StreamName stream, Expected expected, List<EventData> events) {
        return append(stream, expected, events, List.of());
    }

    /** As {@link #append(StreamName, Expected, List)}, replacing the Tip's unfolds with {@code unfolds}. */
    public AppendResult append(StreamName stream, Expected expected, List<EventData> events, List<Unfold> unfolds) {
        checkWritable(stream);
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(unfolds, "unfolds");
        if (events.isEmpty()) {
            throw new IllegalArgumentException("append to " + stream + " has no events; pass at least one "
                    + "(to replace only the unfolds, use writeUnfolds)");
        }
        return appender.append(calls, stream, expected, List.copyOf(events), List.copyOf(unfolds));
    }

    /**
     * Appends events in a calf of their own, keyed by the first one's index and written only if no item has that
     * key. The Tip (holding no events) stays behind until the writer moves it with {@link #ensureTip} or
     * {@link #moveTipToCalves}. Not to be mixed with {@link #append} on one stream.
     *
     * @return a {@link AppendResult.Conflict} when another writer holds {@code expectedVersion} (its version a lower bound)
     * @throws ItemTooLargeException when the events cannot fit one item; nothing was written
     */
    public AppendResult appendAsCalf(StreamName stream, long expectedVersion, List<EventData> events) {
        checkWritable(stream);
        Objects.requireNonNull(events, "events");
        if (events.isEmpty()) {
            throw new IllegalArgumentException("append to " + stream + " has no events; pass at least one");
        }
        if (expectedVersion < 0) {
            throw new IllegalArgumentException("expectedVersion must be >= 0, was " + expectedVersion);
        }
        return appender.appendAsCalf(calls, stream, expectedVersion, List.copyOf(events));
    }

    /**
     * Moves the Tip of a calf-first {@code stream} forwards to {@code version} unless known to be there.
     *
     * @throws IllegalStateException when a Tip-first writer appended to the Tip at indexes calves hold; nothing was written
     */
    public void ensureTip(StreamName stream, long version) {
        checkWritable(stream);
        appender.ensureTip(calls, stream, version);
    }

    /**
     * Moves the Tip of a calf-first {@code stream} forwards to its last calf's end, as read now (one strongly consistent
     * query), for a writer that did not know where the calves end.
     *
     * @return whether the Tip was behind its calves (and is now moved)
     */
    public boolean moveTipToCalves(StreamName stream) {
        checkWritable(stream);
        return appender.moveTipToCalves(calls, stream);
    }

    /**
     * Replaces the Tip's unfolds without appending events ({@code a = 0}); creates a Tip with no events for a new stream.
     *
     * @throws ItemTooLargeException when the unfolds cannot fit the Tip; nothing was written
     */
    public AppendResult writeUnfolds(StreamName stream, Expected expected, List<Unfold> unfolds) {
        checkWritable(stream);
        Objects.requireNonNull(expected, "expected");
        return appender.append(calls, stream, expected, List.of(), List.copyOf(unfolds));
    }

    /** The Tip, or empty when the stream does not exist. */
    public Optional<Tip> readTip(StreamName stream, boolean consistent) {
        var item = TipWrites.read(calls, stream, consistent);
        if (item == null) {
            return Optional.empty();
        }
        Tip tip = Tip.of(stream, item);
        cache.put(stream, TipState.of(stream, item));
        return Optional.of(tip);
    }

    /** Events as {@code read} says, fetched lazily a {@code Query} page at a time; format errors are thrown while consuming. */
    public Stream<StoredEvent> read(StreamName stream, Read read) {
        StreamReader reader = reader(stream, read);
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(reader, Spliterator.ORDERED | Spliterator.NONNULL), false);
    }

    /** All of a forward {@link #read(StreamName, Read)}, and whether it reached the stream's end. */
    public StreamSlice readSlice(StreamName stream, Read read) {
        StreamReader reader = reader(stream, read);
        List<StoredEvent> events = new ArrayList<>();
        reader.forEachRemaining(events::add);
        return new StreamSlice(List.copyOf(events), reader.atEnd());
    }

    private StreamReader reader(StreamName stream, Read read) {
        Objects.requireNonNull(stream, "stream");
        return new StreamReader(calls, cache, stream, read, config.queryPageItems());
    }

    /** All of {@link #read(StreamName, Read)} in a list. */
    public List<StoredEvent> readAll(StreamName stream, Read read) {
        return readSlice(stream, read).events();
    }

    private void checkWritable(StreamName stream) {
        Objects.requireNonNull(stream, "stream");
        if (stream.isReserved() && !config.reservedStreams()) {
            throw new IllegalArgumentException("cannot write to " + stream + ": names starting with '$' are reserved for"
                    + " appendsfeed's own streams; use a name without the '$' prefix");
        }
    }

    /** @param atEnd the read took the Tip and every event it held; false when it cannot tell (a caller then reads once more) */
    public record StreamSlice(List<StoredEvent> events, boolean atEnd) {}
}
