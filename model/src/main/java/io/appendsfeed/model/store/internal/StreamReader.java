package io.appendsfeed.model.store.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreItems;
import io.appendsfeed.model.store.StoredEvent;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.IntSupplier;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Reads a stream's events lazily, page by page; each index comes once, in order.
 *
 * <p>Forwards from k: an ascending {@code Query i >= k}; only when no item starts at k and the Tip does not hold
 * it does a descending {@code Query i < k, Limit 1} fetch the calf holding k first. Calves made while reading sort
 * after those read, so paging cannot miss them; one made between the two queries shows as a Tip starting after k,
 * and the read starts over once. Backwards: a descending {@code Query} from the Tip.
 */
public final class StreamReader implements Iterator<StoredEvent> {

    private final MeteredDynamo dynamo;
    private final TipState.Cache cache;
    private final StreamName stream;
    private final Read read;
    private final int pageItems;
    private final Deque<StoredEvent> buffered = new ArrayDeque<>();
    /** Items holding events, and their events, taken so far (forwards): DynamoDB charges a {@code Query} for whole items. */
    private long itemsSeen;
    private long eventsSeen;
    private ItemPages items;
    /** Forwards: the next index wanted; backwards: the index below which events are still wanted. */
    private long cursor;
    private long emitted;
    private boolean restarted;
    /** Forwards: the Tip, the last item, was taken. */
    private boolean tipTaken;

    /** Items of the first page of a bounded forward read. */
    static final int FIRST_PAGE_ITEMS = 1;

    public StreamReader(MeteredDynamo dynamo, TipState.Cache cache, StreamName stream, Read read, int pageItems) {
        this.dynamo = dynamo;
        this.cache = cache;
        this.stream = stream;
        this.read = read;
        this.pageItems = pageItems;
        this.cursor = read.fromIndex();
        this.items = read.direction() == Read.Direction.FORWARD ? forwardFrom(cursor) : backward();
    }

    private ItemPages forwardFrom(long from) {
        ItemPages atOrAfter = pages("#i >= :k", from, true, pageItems);
        if (from == 0 || !atOrAfter.hasNext()) {
            return from == 0 ? atOrAfter : containing(from);
        }
        Map<String, AttributeValue> first = atOrAfter.next();
        atOrAfter.pushFront(first);
        // the usual case: an item starts at `from` (every calf-first append is one), or the Tip holds it
        if (StoreItems.rangeKey(first) == from || StoreItems.isTip(first) && StoreItems.firstIndex(stream, first) <= from) {
            return atOrAfter;
        }
        return containing(from).then(atOrAfter);
    }

    /** The calf with the greatest first index below {@code from}, which may hold it. */
    private ItemPages containing(long from) {
        return page("#i < :k", from, false, 1);
    }

    private ItemPages backward() {
        long before = read.fromIndex();
        if (before >= StoreItems.TIP_INDEX) {
            return pages(null, 0, false, pageItems);
        }
        // the Tip may hold events below `before` while sorting above it: read it, then the calves below
        return page("#i = :k", StoreItems.TIP_INDEX, false, 1).then(pages("#i < :k", before, false, pageItems));
    }

    private ItemPages pages(String range, long k, boolean ascending, int limit) {
        if (!ascending || read.maxEvents() == Long.MAX_VALUE) {
            // every item but the Tip holds at least one event: n events need at most n + 1 items
            int items = read.maxEvents() >= limit ? limit : (int) read.maxEvents() + 1;
            return new ItemPages(range, k, ascending, () -> items, false);
        }
        return new ItemPages(range, k, true, () -> nextPageItems(limit), false);
    }

    /**
     * Items for the next page of a bounded forward read: the events still wanted over the events per item seen so
     * far. The first page has {@value #FIRST_PAGE_ITEMS}, or {@code wanted + 1} when the read takes whole items
     * (every item but the Tip holds an event).
     */
    private int nextPageItems(int limit) {
        long wanted = Math.max(1, read.maxEvents() - emitted - buffered.size());
        double perItem = itemsSeen > 0 ? (double) eventsSeen / itemsSeen : 0;
        long items = perItem > 0 ? (long) Math.ceil(wanted / perItem) : read.wholeItems() ? wanted + 1 : FIRST_PAGE_ITEMS;
        return (int) Math.max(1, Math.min(items, Math.min(limit, wanted + 1)));
    }

    private ItemPages page(String range, long k, boolean ascending, int limit) {
        return new ItemPages(range, k, ascending, () -> limit, true);
    }

    /** Forwards, once consumed: every event to the stream's end as its Tip was read was returned (the Tip sorts last). */
    public boolean atEnd() {
        return read.direction() == Read.Direction.FORWARD && tipTaken && buffered.isEmpty();
    }

    @Override
    public boolean hasNext() {
        boolean forward = read.direction() == Read.Direction.FORWARD;
        if (emitted >= read.maxEvents()) {
            if (!read.wholeItems() || !forward) {
                return false;
            }
            // the rest of what was paid for: the item the last event came from, and the page's items after it
            while (buffered.isEmpty() && !tipTaken && items.hasFetched()) {
                take(items.next());
            }
            return !buffered.isEmpty();
        }
        // forwards, nothing follows the Tip: a page that ended on it need not be followed by an empty one
        while (buffered.isEmpty() && !(forward && tipTaken) && items.hasNext()) {
            take(items.next());
        }
        return !buffered.isEmpty();
    }

    @Override
    public StoredEvent next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        emitted++;
        return buffered.poll();
    }

    private void take(Map<String, AttributeValue> item) {
        boolean tip = StoreItems.isTip(item);
        if (tip && read.bodies()) {
            cache.put(stream, TipState.of(stream, item));
        }
        if (read.direction() == Read.Direction.FORWARD) {
            if (tip && !restarted && StoreItems.firstIndex(stream, item) > cursor && cursor < StoreItems.next(stream, item)) {
                restarted = true; // a calf may have been made between our two queries: look again from the cursor
                items = forwardFrom(cursor);
                return;
            }
            List<StoredEvent> events = StoreItems.events(stream, item, read.bodies(), cursor, Long.MAX_VALUE);
            buffered.addAll(events);
            tipTaken = tip;
            long held = StoreItems.next(stream, item) - (tip ? StoreItems.firstIndex(stream, item) : StoreItems.rangeKey(item));
            if (held > 0) {
                itemsSeen++;
                eventsSeen += held;
            }
            cursor = Math.max(cursor, StoreItems.next(stream, item));
        } else {
            List<StoredEvent> events = StoreItems.events(stream, item, read.bodies(), 0, cursor);
            for (int k = events.size() - 1; k >= 0; k--) {
                buffered.add(events.get(k));
            }
            if (!events.isEmpty()) {
                cursor = events.get(0).index();
            }
        }
    }

    /** Items of a key range, a {@code Query} page at a time when wanted; then those of the pages chained after them. */
    private final class ItemPages implements Iterator<Map<String, AttributeValue>> {

        private final QueryRequest.Builder query;
        private final IntSupplier limit;
        private final boolean onePage;
        private final Deque<Map<String, AttributeValue>> buffered = new ArrayDeque<>();
        private Map<String, AttributeValue> startKey;
        private boolean exhausted;
        private ItemPages then;

        /** @param range a key condition on {@code #i} with value {@code :k}, or null for every item */
        ItemPages(String range, long k, boolean ascending, IntSupplier limit, boolean onePage) {
            this.onePage = onePage;
            this.limit = limit;
            Map<String, String> names = new HashMap<>(Map.of("#p", StoreItems.STREAM));
            Map<String, AttributeValue> values = new HashMap<>(Map.of(":p", AttributeValue.fromS(stream.value())));
            if (range != null) {
                names.put("#i", StoreItems.RANGE);
                values.put(":k", TipWrites.num(k));
            }
            query = QueryRequest.builder().keyConditionExpression(range == null ? "#p = :p" : "#p = :p AND " + range)
                    .expressionAttributeValues(values).scanIndexForward(ascending).consistentRead(read.consistent());
            if (!read.bodies()) { // types only: the keys, n and c
                names.putAll(Map.of("#i", StoreItems.RANGE, "#n", StoreItems.NEXT, "#c", StoreItems.TYPES));
                query.projectionExpression("#p, #i, #n, #c");
            }
            query.expressionAttributeNames(names);
        }

        ItemPages then(ItemPages next) {
            this.then = next;
            return this;
        }

        void pushFront(Map<String, AttributeValue> item) {
            buffered.addFirst(item);
        }

        @Override
        public boolean hasNext() {
            while (buffered.isEmpty() && !exhausted) {
                QueryResponse page = dynamo.query(query.exclusiveStartKey(startKey).limit(Math.max(1, limit.getAsInt())));
                buffered.addAll(page.items());
                startKey = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
                exhausted = startKey == null || onePage;
            }
            return !buffered.isEmpty() || then != null && then.hasNext();
        }

        /** {@link #next()} would return an item already fetched, without a query. */
        boolean hasFetched() {
            return !buffered.isEmpty() || exhausted && then != null && then.hasFetched();
        }

        @Override
        public Map<String, AttributeValue> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return buffered.isEmpty() ? then.next() : buffered.poll();
        }
    }
}
