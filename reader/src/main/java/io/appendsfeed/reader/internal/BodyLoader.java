package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.MissingEventsException;
import io.appendsfeed.reader.internal.StreamCall.Work;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Loads the bodies of feed events from the store table, for many calls at once: events still in
 * the item cache cost nothing, a stream not known yet that likely has calves is read whole by one
 * query (its items rounded to 4 KB together), streams whose events sit in their Tip (or that are not
 * known yet) have their Tips read together with {@code BatchGetItem}, the others are queried from the
 * calf holding their first event. Reads are eventually consistent; a call that misses an event (a
 * lagging replica) is read again once, strongly consistent, and never handed over with a gap.
 */
public final class BodyLoader {

    /** Streams whose item layout is remembered (about 100 bytes each). */
    private static final int REMEMBERED_LAYOUTS = 100_000;
    /** Store items kept for the next load of their stream, by DynamoDB item size. */
    private static final long ITEM_CACHE_BYTES = 32L << 20;

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
    private final ItemRangeReader items;

    public BodyLoader(StoreClient store) {
        this.store = store;
        this.items = new ItemRangeReader(store.dynamo(), store.config().table(), new StreamLayouts(REMEMBERED_LAYOUTS, ITEM_CACHE_BYTES),
                store.config().meter());
    }

    /** The bodies of each call's events. Never throws: a call's failure is in its {@link Loaded}. */
    Map<Work, Loaded> loadAll(List<Work> calls) {
        Map<Work, Loaded> out = new HashMap<>();
        Map<Work, Map<Long, StoredEvent>> found = new HashMap<>();
        List<Work> viaTip = new ArrayList<>();
        for (Work w : calls) {
            try {
                Map<Long, StoredEvent> cached = items.cached(w.stream(), w.firstIndex(), w.lastIndex());
                if (cached != null) {
                    found.put(w, cached);
                } else if (items.likelyCalved(w.stream(), w.firstIndex(), w.lastIndex())) {
                    found.put(w, items.readWhole(w.stream(), w.lastIndex()));
                } else if (items.tipFirst(w.stream(), w.firstIndex())) {
                    viaTip.add(w);
                } else {
                    found.put(w, items.read(w.stream(), w.firstIndex(), w.lastIndex(), false));
                }
            } catch (RuntimeException e) {
                out.put(w, new Loaded(null, e));
            }
        }
        Map<StreamName, Map<String, AttributeValue>> tips = Map.of();
        try {
            tips = viaTip.isEmpty() ? tips : items.tips(viaTip.stream().map(Work::stream).toList(), false);
        } catch (RuntimeException e) {
            viaTip.forEach(w -> out.put(w, new Loaded(null, e)));
            viaTip.clear();
        }
        for (Work w : viaTip) {
            try {
                found.put(w, items.withTip(w.stream(), tips.get(w.stream()), w.firstIndex(), w.lastIndex(), false));
            } catch (RuntimeException e) {
                out.put(w, new Loaded(null, e));
            }
        }
        for (Map.Entry<Work, Map<Long, StoredEvent>> e : found.entrySet()) {
            out.put(e.getKey(), complete(e.getKey(), e.getValue()));
        }
        return out;
    }

    /** The call's events from what was read; a miss is read again strongly consistent, once. */
    private Loaded complete(Work w, Map<Long, StoredEvent> read) {
        try {
            List<FeedEvent> events = match(w, read, false);
            if (events == null) {
                events = match(w, items.read(w.stream(), w.firstIndex(), w.lastIndex(), true), true);
            }
            return new Loaded(events, null);
        } catch (RuntimeException e) {
            return new Loaded(null, e);
        }
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

    /**
     * Up to {@code max} events of {@code stream} from {@code from} on, strongly consistent, for
     * replaying a released stream.
     */
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
