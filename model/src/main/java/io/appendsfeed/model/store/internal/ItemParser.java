package io.appendsfeed.model.store.internal;

import static io.appendsfeed.model.store.internal.Fields.A;
import static io.appendsfeed.model.store.internal.Fields.C;
import static io.appendsfeed.model.store.internal.Fields.E;
import static io.appendsfeed.model.store.internal.Fields.I;
import static io.appendsfeed.model.store.internal.Fields.N;
import static io.appendsfeed.model.store.internal.Fields.P;
import static io.appendsfeed.model.store.internal.Fields.T;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.StoreItem;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Reads raw items into {@link StoreItem}s (see {@link io.appendsfeed.model.store.StoreItems#parse} and
 * {@link io.appendsfeed.model.store.StoreItems#parseImage}). Pure; what is wrong becomes a
 * {@link StoreItem.Malformed}, never an exception.
 */
public final class ItemParser {

    /** The problem of a Tip's Streams record that carries no new image. */
    public static final String NO_IMAGE = "the record has no new image";

    private ItemParser() {}

    /** A whole item (a scan's or an export's: {@code p, i, n, c}, and {@code a} when present). */
    public static StoreItem item(Map<String, AttributeValue> item) {
        StreamName stream = null;
        try {
            String p = key(item);
            if (p.startsWith(StreamName.RESERVED_PREFIX)) {
                return new StoreItem.Reserved(p);
            }
            stream = StreamName.parse(p);
            long index = number(item, I, "key");
            long next = number(item, N, "attribute");
            if (index != Fields.TIP_INDEX) {
                if (index < 0) {
                    throw new Bad("the key i is " + index + "; a calf's is the index of its first event, 0 or more");
                }
                List<String> types = types(item, "the calf");
                if (index + types.size() != next) {
                    throw new Bad("attribute n is " + next + " but c holds " + types.size()
                            + " event types: they do not fit a calf starting at i = " + index);
                }
                return new StoreItem.Calf(stream, index, types);
            }
            return tip(stream, next, types(item, "the Tip"), appended(item), List.of());
        } catch (Bad bad) {
            return new StoreItem.Malformed(describeKey(item), stream, bad.getMessage());
        }
    }

    /**
     * A Streams record's new image: a calf is read no further than its key, a Tip without new events no
     * further than {@code a}.
     *
     * @param types the image's event types when the source took them out of {@code c} (each a non-empty
     *              string), else null to read {@code c}
     * @param times the image's event timestamps when the source took them out of {@code e}, else null to
     *              read them from {@code e} when asked
     */
    public static StoreItem image(Map<String, AttributeValue> keys, Map<String, AttributeValue> image,
                                  List<String> types, List<String> times) {
        StreamName stream = null;
        try {
            String p = key(keys);
            if (p.startsWith(StreamName.RESERVED_PREFIX)) {
                return new StoreItem.Reserved(p);
            }
            stream = StreamName.parse(p);
            long index = number(keys, I, "key");
            if (index != Fields.TIP_INDEX) {
                return new StoreItem.Calf(stream, index, null);
            }
            if (image == null) {
                throw new Bad(NO_IMAGE);
            }
            long a = appended(image);
            if (a == 0) {
                return new StoreItem.Unfolded(stream);
            }
            long next = number(image, N, "attribute");
            return tip(stream, next, types != null ? types : types(image, "the Tip"), a, times != null ? times : times(image));
        } catch (Bad bad) {
            return new StoreItem.Malformed(describeKey(keys), stream, bad.getMessage());
        }
    }

    /** {@code p=Account-42, i=2147483647} for messages; never throws. */
    public static String describeKey(Map<String, AttributeValue> keys) {
        AttributeValue p = keys.get(P);
        AttributeValue i = keys.get(I);
        return "p=" + (p == null ? "?" : p.s() != null ? p.s() : p.toString())
                + ", i=" + (i == null ? "?" : i.n() != null ? i.n() : i.toString());
    }

    private static StoreItem tip(StreamName stream, long next, List<String> types, long a, List<String> times) {
        if (a > types.size()) {
            throw new Bad("attribute a is " + a + " but c holds only " + types.size() + " event types");
        }
        if (next < types.size()) {
            throw new Bad("attribute n is " + next + " but c holds " + types.size() + " event types; n must be at least that");
        }
        return new StoreItem.Tip(stream, next, types, a, times);
    }

    /** The hash key {@code p}: a stream name, or a reserved ({@code $}) name. */
    private static String key(Map<String, AttributeValue> keys) {
        String p = string(keys, P, "key");
        if (!p.startsWith(StreamName.RESERVED_PREFIX)) {
            String problem = StreamName.problem(p);
            if (problem != null) {
                throw new Bad("the key p is not a stream name: " + problem);
            }
        }
        return p;
    }

    /** {@code a}: 0 when absent. */
    private static long appended(Map<String, AttributeValue> item) {
        long a = item.containsKey(A) ? number(item, A, "attribute") : 0;
        if (a < 0) {
            throw new Bad("attribute a is " + a + "; it must be >= 0");
        }
        return a;
    }

    private static List<String> types(Map<String, AttributeValue> item, String what) {
        AttributeValue c = item.get(C);
        if (c == null) {
            throw new Bad(what + " has no attribute c (its event types)");
        }
        if (!c.hasL()) {
            throw new Bad("attribute c is not a list (L) of event types: " + c);
        }
        List<String> types = new ArrayList<>(c.l().size());
        for (AttributeValue t : c.l()) {
            if (t.s() == null || t.s().isEmpty()) {
                throw new Bad("attribute c holds " + t + " where a non-empty string (S) event type belongs");
            }
            types.add(t.s());
        }
        return types;
    }

    /** A view of each event's {@code t} in {@code e}, read when asked; empty when {@code e} is not a list. */
    private static List<String> times(Map<String, AttributeValue> image) {
        AttributeValue e = image.get(E);
        if (e == null || !e.hasL()) {
            return List.of();
        }
        List<AttributeValue> events = e.l();
        return new AbstractList<>() {
            @Override
            public String get(int k) {
                AttributeValue event = events.get(k);
                AttributeValue t = event.hasM() ? event.m().get(T) : null;
                return t == null ? null : t.s();
            }

            @Override
            public int size() {
                return events.size();
            }
        };
    }

    private static String string(Map<String, AttributeValue> m, String name, String what) {
        AttributeValue v = m.get(name);
        if (v == null) {
            throw new Bad("the " + what + " " + name + " is missing");
        }
        if (v.s() == null) {
            throw new Bad("the " + what + " " + name + " is not a string (S): " + v);
        }
        return v.s();
    }

    private static long number(Map<String, AttributeValue> m, String name, String what) {
        AttributeValue v = m.get(name);
        if (v == null) {
            throw new Bad("the " + what + " " + name + " is missing");
        }
        if (v.n() == null) {
            throw new Bad("the " + what + " " + name + " is not a number (N): " + v);
        }
        try {
            return Long.parseLong(v.n());
        } catch (NumberFormatException e) {
            throw new Bad("the " + what + " " + name + " is not an integer: " + v.n());
        }
    }

    /** What is wrong with an item; becomes a {@link StoreItem.Malformed}. Without a stack trace: it is a result. */
    private static final class Bad extends RuntimeException {
        Bad(String message) {
            super(message, null, false, false);
        }
    }
}
