package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.CapacityMeter;
import io.appendsfeed.model.store.CapacityMeter.Capacity;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreItems;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.reader.MissingEventsException;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.internal.StreamCall.Work;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * Loads the bodies of feed events from the store table for a job's calls: the Tips of its streams
 * with {@code BatchGetItem} and, for a call whose events start before its stream's Tip, the calves with a
 * forward read, unless events kept from an earlier call hold them. Reads are eventually consistent; a call
 * that misses an event (a lagging replica) is read again once, strongly consistent, and is never handed over with a gap.
 */
public final class BodyLoader {

    /** Keys of one {@code BatchGetItem} (DynamoDB's limit): the most calls a job holds. */
    static final int BATCH_GET_KEYS = 100;
    /** Rounds for keys DynamoDB left unprocessed; a stream whose Tip is still unread is then read by a query. */
    private static final int BATCH_GET_ROUNDS = 3;
    /** What a load needs of a Tip: keys, {@code n}, types and events (not the unfolds). */
    private static final String PROJECTION = "#p, #i, #n, #c, #e";
    private static final Map<String, String> NAMES = Map.of("#p", StoreItems.STREAM, "#i", StoreItems.RANGE,
            "#n", StoreItems.NEXT, "#c", StoreItems.TYPES, "#e", StoreItems.EVENTS);
    private static final AttributeValue TIP_KEY = AttributeValue.fromN(Long.toString(StoreItems.TIP_INDEX));
    /** Bytes of events kept for their streams' next calls (bodies, type and an allowance per event). */
    private static final long KEPT_BYTES = 32L << 20;
    /** Most events a call reads of the calves past its own, toward the Tip: bounds one read's memory. */
    private static final int READ_AHEAD_EVENTS = 1000;

    /** A call's events with bodies, or why they could not be loaded. */
    record Loaded(List<FeedEvent> bodies, Exception error) {
        /** @throws Exception why they could not be loaded */
        List<FeedEvent> events() throws Exception {
            if (error != null) {
                throw error;
            }
            return bodies;
        }
    }

    private final StoreClient store;
    /**
     * Events read past the call that read them, by stream, least recently used first out: a stream's spans
     * often come in several calls, and events never change once written, so what one call read serves the next
     * without reading an item twice. Calls of one stream never run at once, so a call takes its stream's out.
     */
    private final LinkedHashMap<StreamName, NavigableMap<Long, StoredEvent>> kept = new LinkedHashMap<>(256, 0.75f, true);
    private long keptBytes;

    public BodyLoader(StoreClient store) {
        this.store = store;
    }

    /** The bodies of each call's events, by call (identity). Never throws: a call's failure is in its {@link Loaded}. */
    Map<Work, Loaded> loadAll(List<Work> calls) {
        Map<Work, Loaded> out = new IdentityHashMap<>();
        Map<Work, NavigableMap<Long, StoredEvent>> held = new IdentityHashMap<>();
        List<StreamName> unread = new ArrayList<>();
        for (Work w : calls) {
            held.put(w, take(w.stream()));
            if (!held.get(w).containsKey(w.lastIndex())) {
                unread.add(w.stream());
            }
        }
        Map<StreamName, Map<String, AttributeValue>> tips;
        try {
            tips = tips(unread.stream().distinct().toList());
        } catch (RuntimeException e) {
            calls.forEach(w -> out.put(w, new Loaded(null, e)));
            return out;
        }
        for (Work w : calls) {
            NavigableMap<Long, StoredEvent> read = held.get(w);
            out.put(w, load(w, tips.get(w.stream()), read));
            read.headMap(w.lastIndex(), true).clear();
            keep(w.stream(), read);
        }
        return out;
    }

    private synchronized NavigableMap<Long, StoredEvent> take(StreamName stream) {
        NavigableMap<Long, StoredEvent> events = kept.remove(stream);
        keptBytes -= events == null ? 0 : bytes(events.values());
        return events == null ? new TreeMap<>() : events;
    }

    /** Keeps {@code events} for the stream's next calls, within {@link #KEPT_BYTES}. */
    private synchronized void keep(StreamName stream, NavigableMap<Long, StoredEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        keptBytes += bytes(events.values());
        NavigableMap<Long, StoredEvent> replaced = kept.put(stream, events);
        keptBytes -= replaced == null ? 0 : bytes(replaced.values());
        Iterator<NavigableMap<Long, StoredEvent>> eldest = kept.values().iterator();
        while (keptBytes > KEPT_BYTES && eldest.hasNext()) {
            keptBytes -= bytes(eldest.next().values());
            eldest.remove();
        }
    }

    private static long bytes(Collection<StoredEvent> events) {
        long sum = 0;
        for (StoredEvent e : events) {
            sum += 64 + e.type().length() + (e.data() == null ? 0 : e.data().length) + (e.meta() == null ? 0 : e.meta().length);
        }
        return sum;
    }

    /** The call's events; a miss is read again strongly consistent, once. */
    private Loaded load(Work w, Map<String, AttributeValue> tip, NavigableMap<Long, StoredEvent> read) {
        try {
            List<FeedEvent> events = match(w, read(w, tip, read), false);
            if (events == null) {
                events = match(w, slice(w.stream(), w.firstIndex(), w.lastIndex(), true), true);
            }
            return new Loaded(events, null);
        } catch (RuntimeException e) {
            return new Loaded(null, e);
        }
    }

    /**
     * Adds to {@code read} (the events held) those of {@code tip} (null: none read) from the call's first on and,
     * for the call's events before the Tip and not held, the calves from the first of them up to the Tip.
     */
    private Map<Long, StoredEvent> read(Work w, Map<String, AttributeValue> tip, NavigableMap<Long, StoredEvent> read) {
        long tipFirst = tip == null ? Long.MAX_VALUE : StoreItems.firstIndex(w.stream(), tip);
        if (tip != null) {
            for (StoredEvent e : StoreItems.events(w.stream(), tip, true, w.firstIndex(), Long.MAX_VALUE)) {
                read.put(e.index(), e);
            }
        }
        List<Long> missing = w.events().stream().map(FeedEvent::index).filter(i -> i < tipFirst && !read.containsKey(i)).toList();
        if (!missing.isEmpty()) {
            long from = missing.get(0);
            long to = missing.get(missing.size() - 1);
            if (tip != null) {
                to = Math.max(to, Math.min(tipFirst, from + READ_AHEAD_EVENTS) - 1);
            }
            read.putAll(slice(w.stream(), from, to, false));
        }
        return read;
    }

    private Map<Long, StoredEvent> slice(StreamName stream, long first, long last, boolean strongly) {
        Read read = Read.forward(first).limit(last - first + 1);
        return store.readAll(stream, strongly ? read.strongly() : read).stream()
                .collect(Collectors.toMap(StoredEvent::index, e -> e));
    }

    /**
     * The Tips of {@code streams}, eventually consistent, {@value #BATCH_GET_KEYS} a request; a stream
     * missing from the result has no Tip visible (or its key stayed unprocessed).
     */
    private Map<StreamName, Map<String, AttributeValue>> tips(List<StreamName> streams) {
        String table = store.config().table();
        CapacityMeter meter = store.config().meter();
        ReturnConsumedCapacity rcc = meter == CapacityMeter.NONE ? ReturnConsumedCapacity.NONE : ReturnConsumedCapacity.TOTAL;
        Map<StreamName, Map<String, AttributeValue>> out = new HashMap<>();
        for (int from = 0; from < streams.size(); from += BATCH_GET_KEYS) {
            List<Map<String, AttributeValue>> keys = new ArrayList<>();
            for (StreamName s : streams.subList(from, Math.min(streams.size(), from + BATCH_GET_KEYS))) {
                keys.add(Map.of(StoreItems.STREAM, AttributeValue.fromS(s.value()), StoreItems.RANGE, TIP_KEY));
            }
            KeysAndAttributes request = KeysAndAttributes.builder().keys(keys).projectionExpression(PROJECTION)
                    .expressionAttributeNames(NAMES).build();
            for (int round = 0; round < BATCH_GET_ROUNDS && request != null && !request.keys().isEmpty(); round++) {
                BatchGetItemResponse r = store.dynamo().batchGetItem(BatchGetItemRequest.builder()
                        .requestItems(Map.of(table, request)).returnConsumedCapacity(rcc).build());
                if (rcc != ReturnConsumedCapacity.NONE && r.hasConsumedCapacity()) {
                    double units = r.consumedCapacity().stream().map(ConsumedCapacity::capacityUnits)
                            .mapToDouble(u -> u == null ? 0 : u).sum();
                    meter.consumed("BatchGetItem", table, new Capacity(units, 0));
                }
                for (Map<String, AttributeValue> item : r.responses().getOrDefault(table, List.of())) {
                    out.put(StreamName.parse(item.get(StoreItems.STREAM).s()), item);
                }
                request = r.unprocessedKeys().get(table);
            }
        }
        return out;
    }

    /**
     * @return the events, or null when one is missing and {@code strong} is false
     * @throws MissingEventsException when one is missing after a strongly consistent read
     * @throws IllegalStateException when the store's event type differs from the feed's
     */
    private static List<FeedEvent> match(Work w, Map<Long, StoredEvent> read, boolean strong) {
        List<FeedEvent> out = new ArrayList<>(w.events().size());
        for (FeedEvent wanted : w.events()) {
            StoredEvent e = read.get(wanted.index());
            if (e == null) {
                if (!strong) {
                    return null;
                }
                long missing = wanted.index();
                throw new MissingEventsException(w.stream(), missing, read.keySet().stream().filter(i -> i > missing)
                        .min(Long::compare).orElse(-1L));
            }
            if (!e.type().equals(wanted.type())) {
                throw new IllegalStateException("event " + wanted.index() + " of " + w.stream() + " has type '" + e.type()
                        + "' in the store table but '" + wanted.type() + "' in the feed: the feed and the store disagree");
            }
            out.add(toFeedEvent(e));
        }
        return out;
    }

    /** Up to {@code max} events of {@code stream} from {@code from} on, strongly consistent, for replaying a released stream. */
    public List<FeedEvent> readFrom(StreamName stream, long from, int max, boolean bodies) {
        Read read = Read.forward(from).limit(max).strongly();
        List<FeedEvent> out = new ArrayList<>();
        for (StoredEvent e : store.readAll(stream, bodies ? read : read.typesOnly())) {
            out.add(bodies ? toFeedEvent(e) : FeedEvent.typeOnly(stream, e.index(), e.type()));
        }
        return out;
    }

    private static FeedEvent toFeedEvent(StoredEvent e) {
        return new FeedEvent(e.stream(), e.index(), e.type(), e.data(), e.meta(), e.timestamp(), e.correlationId(),
                e.causationId());
    }
}
