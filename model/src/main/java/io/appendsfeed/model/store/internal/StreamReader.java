package io.appendsfeed.model.store.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.Read;
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
    private final TipCache cache;
    private final StreamName stream;
    private final Read read;
    private final int pageItems;
    private final ItemSizeHints hints;
    private final Deque<StoredEvent> buffered = new ArrayDeque<>();
    /** Items holding events, and their events, taken so far (forwards): what later pages are sized by. */
    private long itemsSeen;
    private long eventsSeen;
    private Iterator<Map<String, AttributeValue>> items;
    /** Forwards: the next index wanted; backwards: the index below which events are still wanted. */
    private long cursor;
    private long emitted;
    private boolean restarted;

    /** Items of the first page of a bounded forward read of a stream not read before: enough to learn how many events an item holds. */
    static final int FIRST_PAGE_ITEMS = 1;

    public StreamReader(MeteredDynamo dynamo, TipCache cache, StreamName stream, Read read, int pageItems) {
        this(dynamo, cache, stream, read, pageItems, new ItemSizeHints(1));
    }

    public StreamReader(MeteredDynamo dynamo, TipCache cache, StreamName stream, Read read, int pageItems, ItemSizeHints hints) {
        this.dynamo = dynamo;
        this.cache = cache;
        this.stream = stream;
        this.read = read;
        this.pageItems = pageItems;
        this.hints = hints;
        this.cursor = read.fromIndex();
        this.items = read.direction() == Read.Direction.FORWARD ? forwardFrom(cursor) : backward();
    }

    private Iterator<Map<String, AttributeValue>> forwardFrom(long from) {
        ItemPages atOrAfter = pages("#i >= :k", from, true, pageItems);
        if (from == 0) {
            return atOrAfter;
        }
        if (atOrAfter.hasNext()) {
            Map<String, AttributeValue> first = atOrAfter.next();
            Iterator<Map<String, AttributeValue>> all = concat(List.of(first).iterator(), atOrAfter);
            // the usual case: an item starts at `from` (every calf-first append is one), or the Tip holds it
            if (Items.rangeKey(first) == from || Items.isTip(first) && Items.firstIndex(stream, first) <= from) {
                return all;
            }
            return concat(containing(from), all);
        }
        return containing(from);
    }

    /** One page of one item: the calf with the greatest first index below {@code from}, which may hold it. */
    private ItemPages containing(long from) {
        return page("#i < :k", from, false, 1);
    }

    /** {@code first}'s items, then {@code then}'s; {@code then} is not queried before {@code first} is done. */
    private static Iterator<Map<String, AttributeValue>> concat(Iterator<Map<String, AttributeValue>> first,
                                                                Iterator<Map<String, AttributeValue>> then) {
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return first.hasNext() || then.hasNext();
            }

            @Override
            public Map<String, AttributeValue> next() {
                return first.hasNext() ? first.next() : then.next();
            }
        };
    }

    private Iterator<Map<String, AttributeValue>> backward() {
        long before = read.fromIndex();
        if (before >= Fields.TIP_INDEX) {
            return pages(null, 0, false, pageItems);
        }
        // the Tip may hold events below `before` while sorting above it: read it, then the calves below
        ItemPages tip = page("#i = :k", Fields.TIP_INDEX, false, 1);
        ItemPages calves = pages("#i < :k", before, false, pageItems);
        return concat(tip, calves);
    }

    private ItemPages pages(String range, long k, boolean ascending, int limit) {
        if (!ascending || read.maxEvents() == Long.MAX_VALUE) {
            // every item but the Tip holds at least one event: n events need at most n + 1 items
            int items = read.maxEvents() >= limit ? limit : (int) read.maxEvents() + 1;
            return new ItemPages(dynamo, stream, range, k, ascending, items, false, read.consistent(), read.bodies());
        }
        return new ItemPages(dynamo, stream, range, k, true, () -> nextPageItems(limit), false, read.consistent(), read.bodies());
    }

    /**
     * Items for the next page of a bounded forward read: the events still wanted over the events per
     * item seen (in this read, else in the stream's last read); a stream not read before starts with
     * {@value #FIRST_PAGE_ITEMS} item to learn it. A page that comes short (an item smaller than the
     * average, the Tip of a calf-first stream holding none) costs one more query, never a read of
     * items not wanted. Every item holds at least one event but the Tip, so this never asks for more
     * than {@code wanted + 1}.
     */
    private int nextPageItems(int limit) {
        long wanted = Math.max(1, read.maxEvents() - emitted - buffered.size());
        double perItem = itemsSeen > 0 ? (double) eventsSeen / itemsSeen : hints.get(stream);
        long items = perItem <= 0 ? FIRST_PAGE_ITEMS : (long) Math.ceil(wanted / perItem);
        return (int) Math.max(1, Math.min(items, Math.min(limit, wanted + 1)));
    }

    private ItemPages page(String range, long k, boolean ascending, int limit) {
        return new ItemPages(dynamo, stream, range, k, ascending, limit, true, read.consistent(), read.bodies());
    }

    @Override
    public boolean hasNext() {
        if (emitted >= read.maxEvents()) {
            // the rest of the item the last event came from, when asked for; buffered holds that item's only
            return read.wholeItems() && read.direction() == Read.Direction.FORWARD && !buffered.isEmpty();
        }
        while (buffered.isEmpty() && items.hasNext()) {
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
        boolean tip = Items.isTip(item);
        if (tip && read.bodies()) {
            cache.put(stream, TipState.of(stream, item));
        }
        if (read.direction() == Read.Direction.FORWARD) {
            if (tip && !restarted && Items.firstIndex(stream, item) > cursor && cursor < Items.next(stream, item)) {
                restarted = true; // a calf may have been made between our two queries: look again from the cursor
                items = forwardFrom(cursor);
                return;
            }
            List<StoredEvent> events = Items.events(stream, item, read.bodies(), cursor, Long.MAX_VALUE);
            buffered.addAll(events);
            long held = Items.next(stream, item) - (tip ? Items.firstIndex(stream, item) : Items.rangeKey(item));
            if (held > 0) {
                itemsSeen++;
                eventsSeen += held;
                hints.put(stream, (double) eventsSeen / itemsSeen);
            }
            cursor = Math.max(cursor, Items.next(stream, item));
        } else {
            List<StoredEvent> events = Items.events(stream, item, read.bodies(), 0, cursor);
            for (int k = events.size() - 1; k >= 0; k--) {
                buffered.add(events.get(k));
            }
            if (!events.isEmpty()) {
                cursor = events.get(0).index();
            }
        }
    }
}
