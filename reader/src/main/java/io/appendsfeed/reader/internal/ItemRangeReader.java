package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.CapacityMeter.Capacity;
import io.appendsfeed.model.store.CapacityMeter;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.store.StoreItems;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * Reads the events {@code [first, last]} of one stream from the store table with the fewest items
 * read: a forward {@code Query} from the item holding {@code first} (known from {@link StreamLayouts},
 * else found with one descending {@code Query} of one item), asking for as many items as the layout
 * says cover {@code last}, and paging on only when they fell short. Each item is charged once; the
 * bodies of events outside the range are never decoded. Items may come from a lagging replica: the
 * caller checks that every wanted event came.
 */
final class ItemRangeReader {

    /** The attributes a load needs: keys, {@code n}, types and events (never the Tip's unfolds). */
    private static final String PROJECTION = "#p, #i, #n, #c, #e";
    private static final Map<String, String> NAMES = Map.of("#p", StoreItems.STREAM, "#i", StoreItems.RANGE, "#n", StoreItems.NEXT,
            "#c", StoreItems.TYPES, "#e", StoreItems.EVENTS);
    private static final int MAX_PAGE_ITEMS = 100;
    /** Calves a query reads past the range it loads, for the stream's next loads (kept in the item cache). */
    static final int READ_AHEAD_ITEMS = 8;
    static final int BATCH_GET_KEYS = 100;
    /** Rounds of a {@code BatchGetItem} for keys DynamoDB left unprocessed; still unread then, a stream is queried alone. */
    private static final int BATCH_GET_ROUNDS = 3;
    private static final String TIP_KEY = Long.toString(StoreItems.TIP_INDEX);

    private final DynamoDbClient dynamo;
    private final String table;
    private final StreamLayouts layouts;
    private final StreamLayouts.ItemCache cache;
    /** Told the read capacity of each call, as the store client's calls are (the reader's metrics). */
    private final CapacityMeter meter;
    private final ReturnConsumedCapacity rcc;

    ItemRangeReader(DynamoDbClient dynamo, String table, StreamLayouts layouts, CapacityMeter meter) {
        this.dynamo = dynamo;
        this.table = table;
        this.layouts = layouts;
        this.cache = layouts.cache;
        this.meter = meter;
        this.rcc = meter == CapacityMeter.NONE ? ReturnConsumedCapacity.NONE : ReturnConsumedCapacity.TOTAL;
    }

    private void consumed(String operation, List<ConsumedCapacity> consumed) {
        if (rcc != ReturnConsumedCapacity.NONE) {
            double units = consumed.stream().mapToDouble(c -> c.capacityUnits() == null ? 0 : c.capacityUnits()).sum();
            meter.consumed(operation, table, new Capacity(units, 0));
        }
    }

    /** The events of {@code [first, last]} in the item cache, or null when it does not hold them all. */
    Map<Long, StoredEvent> cached(StreamName stream, long first, long last) {
        Map<Long, StoredEvent> out = new HashMap<>();
        if (fromCache(stream, first, last, out) <= last) {
            return null;
        }
        cache.consumed(stream, last + 1);
        return out;
    }

    /** Adds the events the cache holds from {@code first} on; returns the first index it does not hold. */
    private long fromCache(StreamName stream, long first, long last, Map<Long, StoredEvent> out) {
        long next = first;
        for (Map<String, AttributeValue> item : cache.from(stream, first, last)) {
            take(stream, item, first, last, layouts.of(stream), out);
            next = StoreItems.next(stream, item);
        }
        return next;
    }

    /**
     * Whether {@code first} is in the stream's Tip as far as known, or nothing is known of it: then
     * reading the Tip first costs nothing extra when it holds the range, and when it does not it is
     * kept for the stream's later loads.
     */
    boolean tipFirst(StreamName stream, long first) {
        StreamLayouts.Layout layout = layouts.of(stream);
        long start = layout.startKey(first);
        return start < 0 ? !layout.anyCalf() : start == layout.tip();
    }

    /**
     * Whether a load of {@code [0, last]} of a stream nothing is known of likely needs calves
     * ({@link StreamLayouts#likelyCalved}): then it is read whole by one forward {@code Query}
     * ({@link #readWhole}), its calves and Tip rounded up to 4 KB together, as equinox-js reads every
     * stream, where its Tip first would round each on its own. A wrong guess costs a request, not capacity.
     */
    boolean likelyCalved(StreamName stream, long first, long last) {
        if (first != 0) {
            return false; // where a later event sits is not known without a look-up, which is a read of its own
        }
        StreamLayouts.Layout layout = layouts.of(stream);
        if (layout.tip() >= 0 || layout.anyCalf()) {
            return false;
        }
        return layouts.likelyCalved(stream.category(), last + 1);
    }

    /**
     * The events of {@code [0, last]} of a stream read from its first item with one forward {@code Query}
     * that goes on towards the Tip (as many items as the item cache keeps for a stream, or DynamoDB's 1 MB
     * a page): the items after the range are kept for the stream's next loads.
     */
    Map<Long, StoredEvent> readWhole(StreamName stream, long last) {
        Map<Long, StoredEvent> out = new HashMap<>();
        long next = readFrom(stream, layouts.of(stream), 0, last, false, out, StreamLayouts.ItemCache.ITEMS_PER_STREAM - 1);
        if (next >= 0 && next <= last) {
            out.putAll(read(stream, next, last, false));
        }
        cache.consumed(stream, last + 1);
        return out;
    }

    /**
     * The Tips of {@code streams}, read together with {@code BatchGetItem} (100 at a time); a
     * stream missing from the result has no Tip visible (or its key stayed unprocessed).
     */
    Map<StreamName, Map<String, AttributeValue>> tips(List<StreamName> streams, boolean consistent) {
        Map<StreamName, Map<String, AttributeValue>> out = new HashMap<>();
        for (int from = 0; from < streams.size(); from += BATCH_GET_KEYS) {
            List<Map<String, AttributeValue>> keys = new ArrayList<>();
            for (StreamName s : streams.subList(from, Math.min(streams.size(), from + BATCH_GET_KEYS))) {
                keys.add(Map.of(StoreItems.STREAM, AttributeValue.fromS(s.value()), StoreItems.RANGE, AttributeValue.fromN(TIP_KEY)));
            }
            KeysAndAttributes request = KeysAndAttributes.builder().keys(keys).projectionExpression(PROJECTION)
                    .expressionAttributeNames(NAMES).consistentRead(consistent).build();
            for (int round = 0; round < BATCH_GET_ROUNDS && request != null && request.hasKeys() && !request.keys().isEmpty(); round++) {
                BatchGetItemResponse r = dynamo.batchGetItem(BatchGetItemRequest.builder()
                        .requestItems(Map.of(table, request)).returnConsumedCapacity(rcc).build());
                consumed("BatchGetItem", r.hasConsumedCapacity() ? r.consumedCapacity() : List.of());
                for (Map<String, AttributeValue> item : r.responses().getOrDefault(table, List.of())) {
                    out.put(StreamName.parse(item.get(StoreItems.STREAM).s()), item);
                }
                request = r.hasUnprocessedKeys() ? r.unprocessedKeys().get(table) : null;
            }
        }
        return out;
    }

    /**
     * The events of {@code [first, last]} given the stream's Tip as read ({@code tip} may be null):
     * events before the Tip are read from the calves.
     */
    Map<Long, StoredEvent> withTip(StreamName stream, Map<String, AttributeValue> tip, long first, long last, boolean consistent) {
        if (tip == null) {
            return read(stream, first, last, consistent);
        }
        StreamLayouts.Layout layout = layouts.of(stream);
        long tipStart = StoreItems.firstIndex(stream, tip);
        layout.tip(tipStart); // before the calves' read: it bounds that read to the calves below the Tip
        Map<Long, StoredEvent> out = tipStart > first ? read(stream, first, Math.min(last, tipStart - 1), consistent) : new HashMap<>();
        take(stream, tip, first, last, layout, out);
        keep(stream, tip, last);
        return out;
    }

    /**
     * The events of {@code [first, last]} found, by index: from the item cache as far as it goes
     * (unless {@code consistent}: a re-read after a miss), then read, then from the cache again past
     * what was read, and so on. A query of calves reads up to {@value #READ_AHEAD_ITEMS} calves past the
     * range and keeps them for the stream's next loads: DynamoDB rounds a query's items up to 4 KB
     * together. It never reads an item the cache holds, nor the Tip when it starts after the range.
     */
    Map<Long, StoredEvent> read(StreamName stream, long wanted, long last, boolean consistent) {
        StreamLayouts.Layout layout = layouts.of(stream);
        Map<Long, StoredEvent> out = new HashMap<>();
        long first = consistent ? wanted : fromCache(stream, wanted, last, out);
        while (first <= last) {
            long next = readFrom(stream, layout, first, last, consistent, out, READ_AHEAD_ITEMS);
            if (next <= first) {
                return out; // the stream ends before `last` (a lagging replica, or a bad feed)
            }
            first = consistent ? next : fromCache(stream, next, last, out);
        }
        cache.consumed(stream, last + 1);
        return out;
    }

    /**
     * Reads from the item holding {@code first} towards {@code last}, adding the events in range;
     * returns the index after the last event read (past {@code last} when the range was reached), or
     * -1 when the read took the Tip without reaching {@code last}: nothing follows it.
     */
    private long readFrom(StreamName stream, StreamLayouts.Layout layout, long first, long last, boolean consistent,
                          Map<Long, StoredEvent> out, int readAhead) {
        long start = first == 0 ? 0 : layout.startKey(first);
        boolean hinted = first != 0 && start >= 0;
        long from = start; // the least range key the query reads
        long reached = first;
        if (start < 0) {
            // not known where `first` sits: the calf with the greatest first index <= first, if any; read after it
            QueryResponse r = query(stream, 0, first, false, 1, consistent, null);
            start = first;
            if (!r.items().isEmpty() && !StoreItems.isTip(r.items().get(0))) {
                Map<String, AttributeValue> calf = r.items().get(0);
                reached = StoreItems.next(stream, calf);
                if (take(stream, calf, first, last, layout, out)) {
                    keep(stream, calf, last);
                    return reached;
                }
                start = StoreItems.rangeKey(calf);
            }
            from = start + 1;
        }
        // what the query need not read: the Tip when it is known to start after the range or is
        // cached (every wanted event before it sits in a calf keyed below it), and any item cached
        // after `first` (its events come from the cache)
        long upper = -1;
        long tip = layout.tip();
        if (tip > first && (tip > last || cache.holds(stream, tip))) {
            upper = tip - 1;
        }
        long cachedAfter = consistent ? -1 : cache.firstAfter(stream, first);
        if (cachedAfter > first) {
            upper = upper < 0 ? cachedAfter - 1 : Math.min(upper, cachedAfter - 1);
        }
        if (upper >= 0 && upper < from) {
            return reached; // nothing between: the rest comes from the cache
        }
        int limit = Math.min(MAX_PAGE_ITEMS, layout.itemsTo(start, last) + readAhead);
        Map<String, AttributeValue> exclusiveStart = null;
        boolean done = false;
        boolean firstItem = hinted;
        while (true) {
            QueryResponse r = query(stream, from, upper, true, limit, consistent, exclusiveStart);
            for (Map<String, AttributeValue> item : r.items()) {
                if (firstItem && StoreItems.firstIndex(stream, item) > first) {
                    // the layout's hint was wrong (it never should be): find the item holding `first` instead
                    layout.forget();
                    return readFrom(stream, layout, first, last, consistent, out, readAhead);
                }
                firstItem = false;
                if (done) {
                    take(stream, item, first, last, layout, out); // learns where it sits; holds nothing in range
                    keep(stream, item, last); // read ahead: the stream's next loads want it
                    continue;
                }
                reached = Math.max(reached, StoreItems.next(stream, item));
                if (take(stream, item, first, last, layout, out)) {
                    keep(stream, item, last);
                    done = true;
                } else if (StoreItems.isTip(item)) {
                    return -1;
                }
            }
            if (done || !r.hasLastEvaluatedKey() || r.lastEvaluatedKey().isEmpty()) {
                return reached;
            }
            exclusiveStart = r.lastEvaluatedKey();
            limit = Math.min(MAX_PAGE_ITEMS, limit * 2);
        }
    }

    /** Caches the item that ended a load when it holds events after the range: the stream's next load wants them. */
    private void keep(StreamName stream, Map<String, AttributeValue> item, long last) {
        long next = StoreItems.next(stream, item);
        cache.consumed(stream, last + 1);
        if (next > last + 1) {
            cache.put(stream, item, StoreItems.firstIndex(stream, item), next);
        }
    }

    /** Adds the item's events in range; true when it reaches past {@code last}, so nothing after it is needed. */
    private boolean take(StreamName stream, Map<String, AttributeValue> item, long first, long last,
                         StreamLayouts.Layout layout, Map<Long, StoredEvent> out) {
        long next = StoreItems.next(stream, item);
        boolean tip = StoreItems.isTip(item);
        if (tip) {
            layout.tip(StoreItems.firstIndex(stream, item));
        } else {
            layout.calf(StoreItems.rangeKey(item), next);
        }
        layouts.held(stream.category(), tip, next - StoreItems.firstIndex(stream, item));
        List<StoredEvent> events = StoreItems.events(stream, item, true, first, last + 1);
        for (StoredEvent e : events) {
            out.putIfAbsent(e.index(), e);
        }
        return next > last;
    }

    /** The stream's items with range keys from {@code from} up to {@code upper} (-1: no bound). */
    private QueryResponse query(StreamName stream, long from, long upper, boolean ascending, int limit, boolean consistent,
                                Map<String, AttributeValue> exclusiveStart) {
        Map<String, AttributeValue> values = new HashMap<>(4);
        values.put(":p", AttributeValue.fromS(stream.value()));
        values.put(":k", AttributeValue.fromN(Long.toString(from)));
        if (upper >= 0) {
            values.put(":u", AttributeValue.fromN(Long.toString(upper)));
        }
        QueryRequest request = QueryRequest.builder().tableName(table)
                .keyConditionExpression(upper >= 0 ? "#p = :p AND #i BETWEEN :k AND :u" : "#p = :p AND #i >= :k")
                .expressionAttributeNames(NAMES).expressionAttributeValues(values).projectionExpression(PROJECTION)
                .scanIndexForward(ascending).limit(limit).consistentRead(consistent).exclusiveStartKey(exclusiveStart)
                .returnConsumedCapacity(rcc).build();
        QueryResponse r = dynamo.query(request);
        consumed("Query", r.consumedCapacity() == null ? List.of() : List.of(r.consumedCapacity()));
        return r;
    }
}
