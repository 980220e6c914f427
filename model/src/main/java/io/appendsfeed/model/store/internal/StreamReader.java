package io.appendsfeed.model.store.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreItems;
import io.appendsfeed.model.store.StoredEvent;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Reads a stream's events lazily, item by item, page by page.
 *
 * <p>Forwards from k: an ascending {@code Query i >= k} walks the calves from k and the Tip; only
 * when no item starts at k and the Tip does not hold it does one descending {@code Query i < k,
 * Limit 1} fetch the calf holding k first (so a read from an item boundary, such as every offset of
 * a calf-first stream, is one query). Calves made
 * while reading sort after those already read, so paging cannot miss them; a calf made between the
 * two queries shows as a Tip that starts after the wanted index, and the read starts over once.
 * Backwards: a descending {@code Query} from the Tip. Events seen twice (a calf made mid-read holds
 * events already read in the Tip) are dropped, so each index comes once, in order.
 */
public final class StreamReader implements Iterator<StoredEvent> {

    private final MeteredDynamo dynamo;
    private final TipState.Cache cache;
    private final StreamName stream;
    private final Read read;
    private final int pageItems;
    /**
     * How many events a stream's items held, on average, when it was last read forwards: what a read
     * of {@code n} events sizes its {@code Query} pages by. DynamoDB charges a {@code Query} for every
     * item it returns, whole, so a page of {@code n + 1} items where each holds dozens of events (an
     * equinox-js epoch's 48 KiB calves) reads and pays for dozens of times what was wanted.
     */
    private final StreamLru<Double> hints;
    private final Deque<StoredEvent> buffered = new ArrayDeque<>();
    /** Items holding events, and their events, taken so far (forwards): what later pages are sized by. */
    private long itemsSeen;
    private long eventsSeen;
    private ItemPages items;
    /** Forwards: the next index wanted; backwards: the index below which events are still wanted. */
    private long cursor;
    private long emitted;
    private boolean restarted;
    /** Forwards: the Tip (the stream's last item) was taken and its events buffered. */
    private boolean tipTaken;

    /**
     * Items of the first page of a bounded forward read of a stream not read before, unless it takes
     * whole pages: enough to learn how many events an item holds.
     */
    static final int FIRST_PAGE_ITEMS = 1;

    public StreamReader(MeteredDynamo dynamo, TipState.Cache cache, StreamName stream, Read read, int pageItems, StreamLru<Double> hints) {
        this.dynamo = dynamo;
        this.cache = cache;
        this.stream = stream;
        this.read = read;
        this.pageItems = pageItems;
        this.hints = hints;
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

    /** One page of one item: the calf with the greatest first index below {@code from}, which may hold it. */
    private ItemPages containing(long from) {
        return page("#i < :k", from, false, 1);
    }

    private ItemPages backward() {
        long before = read.fromIndex();
        if (before >= Fields.TIP_INDEX) {
            return pages(null, 0, false, pageItems);
        }
        // the Tip may hold events below `before` while sorting above it: read it, then the calves below
        return page("#i = :k", Fields.TIP_INDEX, false, 1).then(pages("#i < :k", before, false, pageItems));
    }

    private ItemPages pages(String range, long k, boolean ascending, int limit) {
        if (!ascending || read.maxEvents() == Long.MAX_VALUE) {
            // every item but the Tip holds at least one event: n events need at most n + 1 items
            int items = read.maxEvents() >= limit ? limit : (int) read.maxEvents() + 1;
            return new ItemPages(dynamo, stream, range, k, ascending, () -> items, false, read.consistent(), read.bodies());
        }
        return new ItemPages(dynamo, stream, range, k, true, () -> nextPageItems(limit), false, read.consistent(), read.bodies());
    }

    /**
     * Items for the next page of a bounded forward read: the events still wanted over the events per
     * item seen (in this read, else in the stream's last read). A stream not read before starts with
     * {@value #FIRST_PAGE_ITEMS} item to learn it, unless the read takes whole pages
     * ({@link Read#wholeItems()}): then nothing fetched is wasted, and the first page asks for as many
     * items as could be wanted (an equinox-js epoch, dozens of events per item, is then read in one
     * page, rounded once, where pages of 1, 3, 4... items were each rounded on their own). A page that
     * comes short (an item smaller than the average, the Tip of a calf-first stream holding none)
     * costs one more query, never a read of items not wanted. Every item holds at least one event but
     * the Tip, so this never asks for more than {@code wanted + 1}.
     */
    private int nextPageItems(int limit) {
        long wanted = Math.max(1, read.maxEvents() - emitted - buffered.size());
        Double hint = hints.get(stream); // null when the stream was not read
        double perItem = itemsSeen > 0 ? (double) eventsSeen / itemsSeen : hint != null ? hint : 0;
        long items = perItem > 0 ? (long) Math.ceil(wanted / perItem) : read.wholeItems() ? wanted + 1 : FIRST_PAGE_ITEMS;
        return (int) Math.max(1, Math.min(items, Math.min(limit, wanted + 1)));
    }

    private ItemPages page(String range, long k, boolean ascending, int limit) {
        return new ItemPages(dynamo, stream, range, k, ascending, () -> limit, true, read.consistent(), read.bodies());
    }

    /**
     * Forwards, once consumed: every event up to the stream's end, as it stood when its Tip was read,
     * has been returned. The Tip sorts after every calf, so a read that took it and handed out all it
     * held has nothing left after it.
     */
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
                hints.put(stream, (double) eventsSeen / itemsSeen);
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
}
