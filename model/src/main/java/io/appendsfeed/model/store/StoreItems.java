package io.appendsfeed.model.store;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.internal.EventCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Raw items of the store format. A reader's own reads ({@link #next}, {@link #events}) throw a
 * {@link StoreFormatException} at what is not of the format; the parse of a scanned item or a Streams image
 * ({@link #parse}, {@link #parseImage}) returns a {@link StoreItem.Malformed} instead.
 */
public final class StoreItems {

    // The attribute names and the Tip's key define the format shared with Equinox.DynamoStore and equinox-js.

    /** Hash key {@code p} (S): the stream name. */
    public static final String STREAM = "p";
    /** Range key {@code i} (N): {@link #TIP_INDEX} for the Tip, the index of its first event for a calf. */
    public static final String RANGE = "i";
    /** {@code n} (N): the index the event after the item's events gets. */
    public static final String NEXT = "n";
    /** {@code a} (N, Tip only; absent means 0): events appended by this write. */
    public static final String APPENDED = "a";
    /** {@code b} (N, Tip only; absent means 0): bytes held in calves. */
    public static final String CALF_BYTES = "b";
    /** {@code etag} (S, Tip only): a fresh random token of every Tip write. */
    public static final String ETAG = "etag";
    /** {@code c} (L of S): the item's event types, in order. */
    public static final String TYPES = "c";
    /** {@code e} (L of M): the item's events. */
    public static final String EVENTS = "e";
    /** {@code u} (L of M): the Tip's unfolds; an empty list on calves and when there are none. */
    public static final String UNFOLDS = "u";
    /** Inside an event or unfold: timestamp {@code t} (S, ISO-8601 UTC). */
    public static final String TIME = "t";
    /** Inside an event or unfold: data body {@code d} (B) and its encoding {@code D} (N; omitted when 0). */
    public static final String DATA = "d";
    public static final String DATA_ENCODING = "D";
    /** Inside an event or unfold: meta body {@code m} (B) and its encoding {@code M} (N); omitted when no meta, or 0. */
    public static final String META = "m";
    public static final String META_ENCODING = "M";
    /** Inside an event: correlation {@code x} and causation {@code y} ids (S; omitted when null). */
    public static final String CORRELATION = "x";
    public static final String CAUSATION = "y";
    /** Inside an unfold: the stream version it was written at {@code i} (N), and its type {@code c} (S). */
    public static final String UNFOLD_INDEX = "i";
    public static final String UNFOLD_TYPE = "c";
    /** The Tip's range key, {@code Int32.MaxValue}: fixed by the format, sorts after every calf. */
    public static final long TIP_INDEX = 2147483647L;

    private StoreItems() {}

    /** -1 when the item has no range key. */
    public static long rangeKey(Map<String, AttributeValue> item) {
        AttributeValue i = item.get(RANGE);
        return i == null || i.n() == null ? -1 : Long.parseLong(i.n());
    }

    public static boolean isTip(Map<String, AttributeValue> item) {
        return rangeKey(item) == TIP_INDEX;
    }

    /** {@code n}. @throws StoreFormatException when unreadable */
    public static long next(StreamName stream, Map<String, AttributeValue> item) {
        return strict(stream, item, () -> number(item, NEXT, "attribute"));
    }

    /** A whole-number attribute, 0 when absent. @throws StoreFormatException when present but not an integer of type N */
    public static long number(StreamName stream, Map<String, AttributeValue> item, String name) {
        return strict(stream, item, () -> item.containsKey(name) ? number(item, name, "attribute") : 0);
    }

    public static String etag(Map<String, AttributeValue> item) {
        AttributeValue v = item.get(ETAG);
        return v == null ? null : v.s();
    }

    /** {@code n - len(c)}. @throws StoreFormatException when unreadable */
    public static long firstIndex(StreamName stream, Map<String, AttributeValue> item) {
        return strict(stream, item, () -> number(item, NEXT, "attribute") - storedTypes(item).size());
    }

    /**
     * The item's events with indexes in [{@code from}, {@code until}), bodies decoded or left out.
     *
     * @throws StoreFormatException or {@link BodyDecodingException} when the item cannot be read
     */
    public static List<StoredEvent> events(StreamName stream, Map<String, AttributeValue> item, boolean bodies,
                                           long from, long until) {
        List<String> types = strict(stream, item, () -> storedTypes(item));
        long first = next(stream, item) - types.size();
        List<AttributeValue> entries = bodies ? strict(stream, item, () -> entries(item, types.size())) : null;
        long rangeKey = rangeKey(item);
        List<StoredEvent> out = new ArrayList<>();
        for (int k = 0; k < types.size(); k++) {
            long index = first + k;
            if (index >= from && index < until) {
                out.add(EventCodec.storedEvent(stream, rangeKey, index, types.get(k), entries == null ? null : entries.get(k)));
            }
        }
        return out;
    }

    private static <T> T strict(StreamName stream, Map<String, AttributeValue> item, Supplier<T> read) {
        try {
            return read.get();
        } catch (Bad bad) {
            throw new StoreFormatException(stream, rangeKey(item), bad.getMessage());
        }
    }

    /** A whole item as a scan or an export reads it ({@code p, i, n, c}, {@code a} when present). Never throws. */
    public static StoreItem parse(Map<String, AttributeValue> item) {
        return parse(item, (stream, index) -> {
            long next = number(item, NEXT, "attribute");
            if (index == TIP_INDEX) {
                return tip(stream, next, types(item, "the Tip"), appended(item));
            }
            if (index < 0) {
                throw new Bad("the key i is " + index + "; a calf's is the index of its first event, 0 or more");
            }
            List<String> types = types(item, "the calf");
            if (index + types.size() != next) {
                throw new Bad("attribute n is " + next + " but c holds " + types.size()
                        + " event types: they do not fit a calf starting at i = " + index);
            }
            return new StoreItem.Calf(stream, index, types);
        });
    }

    /**
     * What a Streams record's new image shows; a calf is read no further than its key. Never throws.
     *
     * @param image the new image, or null when the record carries none ({@link #NO_IMAGE} for a Tip)
     * @param types the image's {@code c} when the source took them out of it, used as given; null to read {@code c}
     */
    public static StoreItem parseImage(Map<String, AttributeValue> keys, Map<String, AttributeValue> image, List<String> types) {
        return parse(keys, (stream, index) -> {
            if (index != TIP_INDEX) {
                return new StoreItem.Calf(stream, index, null);
            }
            if (image == null) {
                throw new Bad(NO_IMAGE);
            }
            long a = appended(image);
            return a == 0 ? new StoreItem.Unfolded(stream)
                    : tip(stream, number(image, NEXT, "attribute"), types != null ? types : types(image, "the Tip"), a);
        });
    }

    public static final String NO_IMAGE = "the record has no new image";

    /** A reserved item, or what {@code read} makes of a stream's item at its range key; what is wrong is a {@link StoreItem.Malformed}. */
    private static StoreItem parse(Map<String, AttributeValue> keys, BiFunction<StreamName, Long, StoreItem> read) {
        StreamName stream = null;
        try {
            AttributeValue p = keys.get(STREAM);
            if (p == null || p.s() == null) {
                throw new Bad(p == null ? "the key p is missing" : "the key p is not a string (S): " + p);
            }
            if (p.s().startsWith(StreamName.RESERVED_PREFIX)) {
                return new StoreItem.Reserved(p.s());
            }
            String problem = StreamName.problem(p.s());
            if (problem != null) {
                throw new Bad("the key p is not a stream name: " + problem);
            }
            stream = StreamName.parse(p.s());
            return read.apply(stream, number(keys, RANGE, "key"));
        } catch (Bad bad) {
            return new StoreItem.Malformed(describeKey(keys), stream, bad.getMessage());
        }
    }

    /** {@code p=Account-42, i=2147483647}; never throws. */
    public static String describeKey(Map<String, AttributeValue> keys) {
        AttributeValue p = keys.get(STREAM);
        AttributeValue i = keys.get(RANGE);
        return "p=" + (p == null ? "?" : p.s() != null ? p.s() : p.toString())
                + ", i=" + (i == null ? "?" : i.n() != null ? i.n() : i.toString());
    }

    private static StoreItem tip(StreamName stream, long next, List<String> types, long a) {
        if (a > types.size()) {
            throw new Bad("attribute a is " + a + " but c holds only " + types.size() + " event types");
        }
        if (next < types.size()) {
            throw new Bad("attribute n is " + next + " but c holds " + types.size() + " event types; n must be at least that");
        }
        return new StoreItem.Tip(stream, next, types, a);
    }

    private static long appended(Map<String, AttributeValue> item) {
        long a = item.containsKey(APPENDED) ? number(item, APPENDED, "attribute") : 0;
        if (a < 0) {
            throw new Bad("attribute a is " + a + "; it must be >= 0");
        }
        return a;
    }

    private static List<String> types(Map<String, AttributeValue> item, String what) {
        AttributeValue c = item.get(TYPES);
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

    /** {@code c}; none for an unfold-only Tip another implementation wrote without it (and without events). */
    private static List<String> storedTypes(Map<String, AttributeValue> item) {
        AttributeValue e = item.get(EVENTS);
        if (item.get(TYPES) == null && (e == null || e.hasL() && e.l().isEmpty())) {
            return List.of();
        }
        return types(item, "the item");
    }

    private static List<AttributeValue> entries(Map<String, AttributeValue> item, int types) {
        AttributeValue e = item.get(EVENTS);
        if (e != null && !e.hasL()) {
            throw new Bad("attribute e is not a list (L) of events: " + e);
        }
        List<AttributeValue> entries = e == null ? List.of() : e.l();
        if (entries.size() != types) {
            throw new Bad("it has " + entries.size() + " events in 'e' but " + types + " types in 'c'");
        }
        return entries;
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

    /** What is wrong with an item, without a stack trace. */
    private static final class Bad extends RuntimeException {
        Bad(String message) {
            super(message, null, false, false);
        }
    }
}
