package io.appendsfeed.indexer.backfill.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Span;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One store item as the scan projects it ({@code p, i, n, c}: no bodies), read as the span of
 * events it holds. Pure.
 */
public sealed interface ScannedItem {

    /** The Tip's range key; defines the store format. */
    long TIP_INDEX = Integer.MAX_VALUE;

    /** A Tip or a calf, holding the events {@code first .. first + types.size() - 1} (a Tip possibly none). */
    record Events(StreamName stream, long first, List<String> types, boolean tip) implements ScannedItem {
        public long next() {
            return first + types.size();
        }

        /** The events as a span; null when there are none. */
        public Span span() {
            return types.isEmpty() ? null : new Span(stream, first, types);
        }
    }

    /** An item of a {@code $} stream. */
    record Reserved() implements ScannedItem {}

    /** Not of the store format. */
    record Rejected(String key, StreamName stream, String reason) implements ScannedItem {}

    static ScannedItem parse(Map<String, AttributeValue> item) {
        AttributeValue p = item.get("p");
        AttributeValue i = item.get("i");
        String key = "p=" + (p == null ? "?" : p.s()) + ", i=" + (i == null ? "?" : i.n());
        if (p == null || p.s() == null) {
            return new Rejected(key, null, "the key p is missing or not a string (S)");
        }
        if (p.s().startsWith(StreamName.RESERVED_PREFIX)) {
            return new Reserved();
        }
        String problem = StreamName.problem(p.s());
        if (problem != null) {
            return new Rejected(key, null, "the key p is not a stream name: " + problem);
        }
        StreamName stream = StreamName.parse(p.s());
        try {
            long index = number(item, "i");
            long next = number(item, "n");
            List<String> types = types(item);
            boolean tip = index == TIP_INDEX;
            long first = tip ? next - types.size() : index;
            if (first < 0 || (!tip && first + types.size() != next)) {
                return new Rejected(key, stream, "n = " + next + " and " + types.size() + " event types in c do not fit"
                        + (tip ? " (n must be at least the count of types)" : " a calf starting at i = " + index));
            }
            return new Events(stream, first, types, tip);
        } catch (IllegalArgumentException e) {
            return new Rejected(key, stream, e.getMessage());
        }
    }

    private static long number(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        if (v == null || v.n() == null) {
            throw new IllegalArgumentException("attribute " + name + " is missing or not a number (N)");
        }
        try {
            return Long.parseLong(v.n());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("attribute " + name + " is not an integer: " + v.n(), e);
        }
    }

    private static List<String> types(Map<String, AttributeValue> item) {
        AttributeValue c = item.get("c");
        if (c == null || !c.hasL()) {
            throw new IllegalArgumentException("attribute c (the event types) is missing or not a list (L)");
        }
        List<String> out = new ArrayList<>(c.l().size());
        for (AttributeValue t : c.l()) {
            if (t.s() == null || t.s().isEmpty()) {
                throw new IllegalArgumentException("attribute c holds " + t + " where a non-empty event type (S) belongs");
            }
            out.add(t.s());
        }
        return out;
    }
}
