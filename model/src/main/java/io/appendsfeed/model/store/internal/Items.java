package io.appendsfeed.model.store.internal;

import static io.appendsfeed.model.store.internal.Fields.B;
import static io.appendsfeed.model.store.internal.Fields.C;
import static io.appendsfeed.model.store.internal.Fields.E;
import static io.appendsfeed.model.store.internal.Fields.ETAG;
import static io.appendsfeed.model.store.internal.Fields.I;
import static io.appendsfeed.model.store.internal.Fields.N;
import static io.appendsfeed.model.store.internal.Fields.U;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.StoreFormatException;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.store.StoredUnfold;
import io.appendsfeed.model.store.Tip;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Reads Tips and calves (ours or other writers'): index math and attribute checks. */
public final class Items {

    private Items() {}

    public static long rangeKey(Map<String, AttributeValue> item) {
        AttributeValue i = item.get(I);
        return i == null || i.n() == null ? -1 : Long.parseLong(i.n());
    }

    public static boolean isTip(Map<String, AttributeValue> item) {
        return rangeKey(item) == Fields.TIP_INDEX;
    }

    /** {@code n}: the index the event after this item's events gets. */
    public static long next(StreamName stream, Map<String, AttributeValue> item) {
        AttributeValue n = item.get(N);
        if (n == null || n.n() == null) {
            throw new StoreFormatException(stream, rangeKey(item), n == null ? "it has no 'n' (N)"
                    : "its 'n' is not a number (N): " + n);
        }
        try {
            return Long.parseLong(n.n());
        } catch (NumberFormatException e) {
            throw new StoreFormatException(stream, rangeKey(item), "its 'n' is not an integer: " + n.n(), e);
        }
    }

    /**
     * An optional whole-number attribute ({@code a}, {@code b}): 0 when absent.
     *
     * @throws StoreFormatException when it is present but not an integer of type N
     */
    public static long number(StreamName stream, Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        if (v == null) {
            return 0;
        }
        if (v.n() == null) {
            throw new StoreFormatException(stream, rangeKey(item), "its '" + name + "' is not a number (N): " + v);
        }
        try {
            return Long.parseLong(v.n());
        } catch (NumberFormatException e) {
            throw new StoreFormatException(stream, rangeKey(item), "its '" + name + "' is not an integer: " + v.n(), e);
        }
    }

    public static String etag(Map<String, AttributeValue> item) {
        AttributeValue v = item.get(ETAG);
        return v == null ? null : v.s();
    }

    /** The types ({@code c}); empty when absent (an unfold-only Tip written by another implementation). */
    public static List<String> types(StreamName stream, Map<String, AttributeValue> item) {
        AttributeValue c = item.get(C);
        if (c == null) {
            if (item.get(E) != null && !item.get(E).l().isEmpty()) {
                throw new StoreFormatException(stream, rangeKey(item), "it has events 'e' but no types 'c'");
            }
            return List.of();
        }
        if (c.type() != AttributeValue.Type.L) {
            // the SDK hands out an empty list for l() of any other type: never read that as "no events"
            throw new StoreFormatException(stream, rangeKey(item), "its 'c' is not a list (L) of event types: " + c);
        }
        List<String> types = new ArrayList<>(c.l().size());
        for (AttributeValue t : c.l()) {
            if (t.s() == null) {
                throw new StoreFormatException(stream, rangeKey(item), "'c' holds a non-string: " + t);
            }
            types.add(t.s());
        }
        return types;
    }

    /** Index of the item's first event: {@code n - len(c)}. */
    public static long firstIndex(StreamName stream, Map<String, AttributeValue> item) {
        return next(stream, item) - types(stream, item).size();
    }

    /**
     * The item's events with index in {@code [from, until)}, oldest first; types only when the item
     * was read without {@code e}.
     */
    public static List<StoredEvent> events(StreamName stream, Map<String, AttributeValue> item, boolean bodies,
                                           long from, long until) {
        long rangeKey = rangeKey(item);
        List<String> types = types(stream, item);
        long first = next(stream, item) - types.size();
        List<AttributeValue> entries = null;
        if (bodies) {
            AttributeValue e = item.get(E);
            if (e != null && e.type() != AttributeValue.Type.L) {
                throw new StoreFormatException(stream, rangeKey, "its 'e' is not a list (L) of events: " + e);
            }
            entries = e == null ? List.of() : e.l();
            if (entries.size() != types.size()) {
                throw new StoreFormatException(stream, rangeKey,
                        "it has " + entries.size() + " events in 'e' but " + types.size() + " types in 'c'");
            }
        }
        List<StoredEvent> out = new ArrayList<>();
        for (int k = 0; k < types.size(); k++) {
            long index = first + k;
            if (index >= from && index < until) {
                out.add(EventCodec.storedEvent(stream, rangeKey, index, types.get(k), entries == null ? null : entries.get(k)));
            }
        }
        return out;
    }

    public static Tip tip(StreamName stream, Map<String, AttributeValue> item) {
        List<StoredEvent> events = events(stream, item, true, 0, Long.MAX_VALUE);
        AttributeValue u = item.get(U);
        List<StoredUnfold> unfolds = new ArrayList<>();
        if (u != null && u.l() != null) {
            for (AttributeValue entry : u.l()) {
                unfolds.add(EventCodec.storedUnfold(stream, entry));
            }
        }
        return new Tip(stream, next(stream, item), etag(item), List.copyOf(events), List.copyOf(unfolds), number(stream, item, B));
    }
}
