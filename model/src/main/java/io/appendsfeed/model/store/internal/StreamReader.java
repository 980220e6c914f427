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
 * <p>Forwards from k: one descending {@code Query i <= k, Limit 1} finds the calf holding k (skipped
 * for k = 0), then an ascending {@code Query i > k} walks the later calves and the Tip. Calves made
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
    private final Deque<StoredEvent> buffered = new ArrayDeque<>();
    private Iterator<Map<String, AttributeValue>> items;
    /** Forwards: the next index wanted; backwards: the index below which events are still wanted. */
    private long cursor;
    private long emitted;
    private boolean restarted;

    public StreamReader(MeteredDynamo dynamo, TipCache cache, StreamName stream, Read read, int pageItems) {
        this.dynamo = dynamo;
        this.cache = cache;
        this.stream = stream;
        this.read = read;
        this.pageItems = pageItems;
        this.cursor = read.fromIndex();
        this.items = read.direction() == Read.Direction.FORWARD ? forwardFrom(cursor) : backward();
    }

    private Iterator<Map<String, AttributeValue>> forwardFrom(long from) {
        ItemPages later = from == 0
                ? pages("#i >= :k", 0, true, pageItems)
                : pages("#i > :k", from, true, pageItems);
        if (from == 0) {
            return later;
        }
        ItemPages containing = pages("#i <= :k", from, false, 1);
        return new Iterator<>() {
            private boolean first = true;

            @Override
            public boolean hasNext() {
                return first || later.hasNext();
            }

            @Override
            public Map<String, AttributeValue> next() {
                if (first) {
                    first = false;
                    // one page of one item: the calf with the greatest first index <= from, if any
                    if (containing.hasNext()) {
                        return containing.next();
                    }
                }
                return later.next();
            }
        };
    }

    private Iterator<Map<String, AttributeValue>> backward() {
        long before = read.fromIndex();
        if (before >= Fields.TIP_INDEX) {
            return pages(null, 0, false, pageItems);
        }
        // the Tip may hold events below `before` while sorting above it: read it, then the calves below
        ItemPages tip = pages("#i = :k", Fields.TIP_INDEX, false, 1);
        ItemPages calves = pages("#i < :k", before, false, pageItems);
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return tip.hasNext() || calves.hasNext();
            }

            @Override
            public Map<String, AttributeValue> next() {
                return tip.hasNext() ? tip.next() : calves.next();
            }
        };
    }

    private ItemPages pages(String range, long k, boolean ascending, int limit) {
        return new ItemPages(dynamo, stream, range, k, ascending, limit, read.consistent(), read.bodies());
    }

    @Override
    public boolean hasNext() {
        if (emitted >= read.maxEvents()) {
            return false;
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
