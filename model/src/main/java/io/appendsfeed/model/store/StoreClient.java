package io.appendsfeed.model.store;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.CapacityMeter.Capacity;
import io.appendsfeed.model.store.internal.Appender;
import io.appendsfeed.model.store.internal.MeteredDynamo;
import io.appendsfeed.model.store.internal.StreamReader;
import io.appendsfeed.model.store.internal.StreamLru;
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
 * The one client for the store format (DESIGN.md): appends with optimistic concurrency, calving,
 * unfolds, and reads forwards and backwards, for event-store tables and the index table. Thread-safe.
 *
 * <p>Cost: an append to a stream whose Tip this client knows (see {@link StoreConfig#tipCacheStreams()})
 * is one conditional write; otherwise a consistent {@code GetItem} of the Tip comes first (none for a new
 * stream expected at version 0). An append that calves writes calf and Tip in one transaction.
 *
 * <p>Every DynamoDB error other than a failed condition is thrown as the SDK's exception, after the
 * SDK's own retries; nothing was written unless it says so.
 */
public final class StoreClient {

    private final DynamoDbClient dynamo;
    private final StoreConfig config;
    private final TipState.Cache cache;
    private final Appender appender;
    /** Events per item of the streams read forwards lately: sizes bounded reads' pages (see {@link StreamReader}). */
    private final StreamLru<Double> itemSizeHints = new StreamLru<>(1024);

    /** The caller owns {@code dynamo} and closes it. */
    public StoreClient(DynamoDbClient dynamo, StoreConfig config) {
        this.dynamo = Objects.requireNonNull(dynamo, "dynamo");
        this.config = Objects.requireNonNull(config, "config");
        this.cache = new TipState.Cache(config.tipCacheStreams());
        this.appender = new Appender(cache, config);
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
     * @return {@link AppendResult.Written}, or {@link AppendResult.Conflict} with the actual version (with
     *         {@link Expected#any()}: only when other writers changed the Tip on 8 attempts in a row)
     * @throws IllegalArgumentException when the name is reserved (and the config does not allow it) or events is empty
     * @throws ItemTooLargeException when the events cannot fit one item; nothing was written
     */
    public AppendResult append(StreamName stream, Expected expected, List<EventData> events) {
        return append(stream, expected, events, List.of());
    }

    /**
     * As {@link #append(StreamName, Expected, List)}, writing {@code unfolds} as the Tip's new unfolds
     * (each stored with the stream version this append leaves).
     *
     * @throws ItemTooLargeException when the events and unfolds cannot fit one item; nothing was written
     * @throws StoreFormatException when the Tip is not of the store format; nothing was written
     */
    public AppendResult append(StreamName stream, Expected expected, List<EventData> events, List<Unfold> unfolds) {
        checkWritable(stream);
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(unfolds, "unfolds");
        if (events.isEmpty()) {
            throw new IllegalArgumentException("append to " + stream + " has no events; pass at least one "
                    + "(to replace only the unfolds, use writeUnfolds)");
        }
        return appender.append(calls(), stream, expected, List.copyOf(events), List.copyOf(unfolds));
    }

    /**
     * Appends events in an item of their own (a calf keyed by the first new event's index, written only
     * if no item has that key), then moves the Tip, which holds no events, to the new version: each
     * append writes only its own events (the index's epochs; the model README, "Calf-first appends").
     * The stream must not be written with {@link #append} at the same time.
     *
     * @return {@link AppendResult.Written}, or {@link AppendResult.Conflict} when another writer holds
     *         {@code expectedVersion} already (its {@code actualVersion} is then only a lower bound)
     * @throws ItemTooLargeException when the events cannot fit one item; nothing was written
     * @throws RuntimeException from DynamoDB when the item's write failed: it may or may not have landed
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
        return appender.appendAsCalf(calls(), stream, expectedVersion, List.copyOf(events));
    }

    /**
     * Tells this client that {@code stream}, written calf-first, has no Tip as far as the caller knows (a
     * stream it has just begun, such as a new epoch), so that its first {@link #appendAsCalf} does not
     * read the Tip first. If another writer got there first, the append conflicts as usual.
     */
    public void assumeNoTip(StreamName stream) {
        checkWritable(stream);
        appender.assumeNoTip(stream);
    }

    /**
     * Brings the Tip of {@code stream}, written calf-first, up to {@code version} (the end of its calves as
     * the caller read or wrote them) unless this client knows it is there: one {@code UpdateItem} that only
     * moves the Tip forwards.
     *
     * @return the capacity spent
     * @throws RuntimeException from DynamoDB; the Tip stays where it is
     */
    public Capacity ensureTip(StreamName stream, long version) {
        checkWritable(stream);
        MeteredDynamo calls = calls();
        appender.ensureTip(calls, stream, version);
        return calls.spent();
    }

    /**
     * Replaces the Tip's unfolds without appending events ({@code a = 0}). On a stream that does not
     * exist (expected version 0, or any) it creates a Tip with no events.
     *
     * @return {@link AppendResult.Written} (the version is unchanged) or {@link AppendResult.Conflict}
     * @throws ItemTooLargeException when the unfolds cannot fit the Tip; nothing was written
     */
    public AppendResult writeUnfolds(StreamName stream, Expected expected, List<Unfold> unfolds) {
        checkWritable(stream);
        Objects.requireNonNull(expected, "expected");
        return appender.append(calls(), stream, expected, List.of(), List.copyOf(unfolds));
    }

    /**
     * The Tip, or empty when the stream does not exist. A strongly consistent read costs twice as much.
     *
     * @throws StoreFormatException or {@link BodyDecodingException} when the Tip cannot be read
     */
    public Optional<Tip> readTip(StreamName stream, boolean consistent) {
        var item = TipWrites.read(calls(), stream, consistent);
        if (item == null) {
            return Optional.empty();
        }
        Tip tip = Tip.of(stream, item);
        cache.put(stream, TipState.of(stream, item));
        return Optional.of(tip);
    }

    /**
     * Events as {@code read} says, in its direction, fetched lazily one {@code Query} page at a time.
     * Empty when the stream does not exist.
     *
     * @throws StoreFormatException or {@link BodyDecodingException} (while consuming) on an item not of the format
     */
    public Stream<StoredEvent> read(StreamName stream, Read read) {
        StreamReader reader = reader(stream, read);
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(reader, Spliterator.ORDERED | Spliterator.NONNULL), false);
    }

    /** All of a forward {@link #read(StreamName, Read)}, and whether it reached the stream's end. */
    public StreamSlice readSlice(StreamName stream, Read read) {
        StreamReader reader = reader(stream, read);
        List<StoredEvent> events = new ArrayList<>();
        reader.forEachRemaining(events::add);
        return new StreamSlice(events, reader.atEnd());
    }

    private StreamReader reader(StreamName stream, Read read) {
        Objects.requireNonNull(stream, "stream");
        return new StreamReader(calls(), cache, stream, read, config.queryPageItems(), itemSizeHints);
    }

    /** The DynamoDB calls of one operation, metered. */
    private MeteredDynamo calls() {
        return new MeteredDynamo(dynamo, config.table(), config.meter());
    }

    /** All of {@link #read(StreamName, Read)} in a list. */
    public List<StoredEvent> readAll(StreamName stream, Read read) {
        return readSlice(stream, read).events();
    }

    private void checkWritable(StreamName stream) {
        Objects.requireNonNull(stream, "stream");
        if (stream.isReserved() && !config.reservedStreams()) {
            throw new IllegalArgumentException("cannot write to " + stream + ": names starting with '"
                    + StreamName.RESERVED_PREFIX + "' are reserved for appendsfeed's own streams (the feed index); "
                    + "use a name without the '$' prefix. Only the index table's client sets StoreConfig.reservedStreams(true)");
        }
    }

    /**
     * Events a forward read returned, in order.
     *
     * @param atEnd the read took the stream's Tip and returned every event it held: reading on would, at
     *              that moment, have found nothing. False when the read stopped before the Tip, or the
     *              stream has no Tip; a caller that needs to know then reads once more
     */
    public record StreamSlice(List<StoredEvent> events, boolean atEnd) {

        public StreamSlice {
            events = List.copyOf(events);
        }
    }
}
