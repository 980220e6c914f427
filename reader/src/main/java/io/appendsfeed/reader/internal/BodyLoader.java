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
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * Loads the bodies of feed events from the store table for a job's calls: the Tips of its streams
 * with {@code BatchGetItem} (unless a Tip kept from an earlier call holds them), and, for a call whose
 * events start before its stream's Tip, the calves with a forward read. Reads are eventually consistent; a call that misses an event (a
 * lagging replica) is read again once, strongly consistent, and is never handed over with a gap.
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
    /** Bytes of Tips kept for their streams' next calls, by DynamoDB's item size. */
    private static final long KEPT_TIPS_BYTES = 32L << 20;

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
     * Tips holding events after the call that read them, by stream, least recently used first out: a
     * stream's spans often come in several calls, and events never change once written, so a Tip read
     * before serves any range it holds. Without them the peer run's reads at K=100 took 1.8x the read units.
     */
    private final LinkedHashMap<StreamName, Map<String, AttributeValue>> keptTips = new LinkedHashMap<>(256, 0.75f, true);
    private long keptBytes;

    public BodyLoader(StoreClient store) {
        this.store = store;
    }

    /** The bodies of each call's events. Never throws: a call's failure is in its {@link Loaded}. */
    Map<Work, Loaded> loadAll(List<Work> calls) {
        Map<Work, Loaded> out = new HashMap<>();
        Map<StreamName, Map<String, AttributeValue>> tips = new HashMap<>();
        List<StreamName> unread = new ArrayList<>();
        for (Work w : calls) {
            Map<String, AttributeValue> kept = kept(w);
            if (kept != null) {
                tips.put(w.stream(), kept);
            } else {
                unread.add(w.stream());
            }
        }
        try {
            tips.putAll(tips(unread.stream().distinct().toList()));
        } catch (RuntimeException e) {
            calls.forEach(w -> out.put(w, new Loaded(null, e)));
            return out;
        }
        for (Work w : calls) {
            Map<String, AttributeValue> tip = tips.get(w.stream());
            out.put(w, load(w, tip));
            keep(w.stream(), tip, w.lastIndex());
        }
        return out;
    }

    /** The kept Tip of the call's stream when it reaches the call's last event (earlier ones come from calves), else null. */
    private synchronized Map<String, AttributeValue> kept(Work w) {
        Map<String, AttributeValue> tip = keptTips.get(w.stream());
        return tip != null && StoreItems.next(w.stream(), tip) > w.lastIndex() ? tip : null;
    }

    /** Keeps {@code tip} (null: none read) while it holds events after {@code last}, within {@link #KEPT_TIPS_BYTES}. */
    private synchronized void keep(StreamName stream, Map<String, AttributeValue> tip, long last) {
        Map<String, AttributeValue> before = keptTips.remove(stream);
        if (before != null) {
            keptBytes -= StoreItems.size(before);
        }
        if (tip == null || StoreItems.next(stream, tip) <= last + 1) {
            return;
        }
        keptTips.put(stream, tip);
        keptBytes += StoreItems.size(tip);
        Iterator<Map<String, AttributeValue>> eldest = keptTips.values().iterator();
        while (keptBytes > KEPT_TIPS_BYTES && eldest.hasNext()) {
            keptBytes -= StoreItems.size(eldest.next());
            eldest.remove();
        }
    }

    /** The call's events; a miss is read again strongly consistent, once. */
    private Loaded load(Work w, Map<String, AttributeValue> tip) {
        try {
            List<FeedEvent> events = match(w, read(w, tip), false);
            if (events == null) {
                events = match(w, slice(w.stream(), w.firstIndex(), w.lastIndex(), true), true);
            }
            return new Loaded(events, null);
        } catch (RuntimeException e) {
            return new Loaded(null, e);
        }
    }

    /** The call's events in {@code tip} (null: none read) and, for those before it, in the calves. */
    private Map<Long, StoredEvent> read(Work w, Map<String, AttributeValue> tip) {
        long first = w.firstIndex();
        long last = w.lastIndex();
        long tipFirst = tip == null ? Long.MAX_VALUE : StoreItems.firstIndex(w.stream(), tip);
        Map<Long, StoredEvent> out = first < tipFirst ? slice(w.stream(), first, Math.min(last, tipFirst - 1), false) : new HashMap<>();
        if (last >= tipFirst) {
            for (StoredEvent e : StoreItems.events(w.stream(), tip, true, Math.max(first, tipFirst), last + 1)) {
                out.put(e.index(), e);
            }
        }
        return out;
    }

    private Map<Long, StoredEvent> slice(StreamName stream, long first, long last, boolean strongly) {
        Read read = Read.forward(first).limit(last - first + 1);
        Map<Long, StoredEvent> out = new HashMap<>();
        for (StoredEvent e : store.readAll(stream, strongly ? read.strongly() : read)) {
            out.put(e.index(), e);
        }
        return out;
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

    public static FeedEvent toFeedEvent(StoredEvent e) {
        return new FeedEvent(e.stream(), e.index(), e.type(), e.data(), e.meta(), e.timestamp(), e.correlationId(),
                e.causationId());
    }
}
