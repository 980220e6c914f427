package io.appendsfeed.indexer.internal;

import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.EventTimes;
import io.appendsfeed.indexer.RejectedRecord;
import io.appendsfeed.indexer.SourceSpan;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.store.StoreItems;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Turns a Streams record of a store table into a span (DESIGN.md, "The indexer", step 2): an INSERT or MODIFY
 * of a Tip with {@code a > 0} gives {@code (p, n - a, last a of c)}. REMOVE, calves, {@code a = 0}
 * and {@code $} streams are skipped. Anything else is rejected with what is wrong. Pure.
 */
public final class RecordParser {

    /** The Tip's range key: {@code i = 2147483647}. Defines the store format. */
    public static final long TIP_INDEX = Integer.MAX_VALUE;

    private RecordParser() {}

    public static Parsed parse(ChangeRecord r) {
        try {
            return parseOrThrow(r);
        } catch (Bad bad) {
            return new Parsed.Rejected(new RejectedRecord(r.sequenceNumber(), r.describeKey(), bad.getMessage()));
        }
    }

    private static Parsed parseOrThrow(ChangeRecord r) {
        String name = r.eventName();
        if ("REMOVE".equals(name)) {
            return new Parsed.Skipped(Parsed.SkipReason.REMOVE);
        }
        if (!"INSERT".equals(name) && !"MODIFY".equals(name)) {
            throw new Bad("event name '" + name + "' is none of INSERT, MODIFY, REMOVE");
        }
        String p = string(r.keys(), "p", "key");
        long i = number(r.keys(), "i", "key");
        if (p.startsWith(StreamName.RESERVED_PREFIX)) {
            return new Parsed.Skipped(Parsed.SkipReason.RESERVED_STREAM);
        }
        String problem = StreamName.problem(p);
        if (problem != null) {
            throw new Bad("key p is not a stream name: " + problem);
        }
        if (i != TIP_INDEX) {
            return new Parsed.Skipped(Parsed.SkipReason.CALF);
        }
        Map<String, AttributeValue> img = r.newImage();
        if (img == null) {
            throw new Bad("the record has no new image (stream view type " + r.viewType()
                    + "); enable Streams on the store table with NEW_IMAGE or NEW_AND_OLD_IMAGES");
        }
        long a = img.containsKey("a") ? number(img, "a", "attribute") : 0;
        if (a == 0) {
            return new Parsed.Skipped(Parsed.SkipReason.NO_NEW_EVENTS);
        }
        if (a < 0) {
            throw new Bad("attribute a is " + a + "; it must be >= 0");
        }
        long n = number(img, "n", "attribute");
        List<String> c = r.eventTypes() != null ? r.eventTypes() : types(img);
        if (a > c.size()) {
            throw new Bad("attribute a is " + a + " but c holds only " + c.size() + " event types");
        }
        if (n < c.size()) {
            throw new Bad("attribute n is " + n + " but c holds " + c.size() + " event types; n must be at least that");
        }
        StreamName stream = StreamName.parse(p);
        Span tip = new Span(stream, n - c.size(), c);
        Span span = tip.from(n - a);
        List<String> times = eventTimes(r, img);
        return new Parsed.Spanned(new SourceSpan(span, tip, writtenAt(r, times, (int) a), r.sequenceNumber(), times(times, n)));
    }

    /** The times of the Tip's events, parsed only when asked for (rarely: see {@link io.appendsfeed.indexer.EventTimes}). */
    private static EventTimes times(List<String> times, long n) {
        if (times.isEmpty()) {
            return EventTimes.NONE;
        }
        long first = n - times.size();
        return index -> index < first || index >= n ? null : time(times.get((int) (index - first)));
    }

    /**
     * The timestamps {@code t} of the Tip's events, in order (null where an event has none): what the
     * source gave ({@link ChangeRecord#eventTimes()}), or else a view of the image's {@code e} that reads
     * an event's {@code t} only when asked.
     */
    private static List<String> eventTimes(ChangeRecord r, Map<String, AttributeValue> img) {
        if (r.eventTimes() != null) {
            return r.eventTimes();
        }
        AttributeValue e = img.get("e");
        if (e == null || !e.hasL()) {
            return List.of();
        }
        List<AttributeValue> events = e.l();
        return new AbstractList<>() {
            @Override
            public String get(int k) {
                AttributeValue event = events.get(k);
                AttributeValue t = event.hasM() ? event.m().get("t") : null;
                return t == null ? null : t.s();
            }

            @Override
            public int size() {
                return events.size();
            }
        };
    }

    /** A timestamp, or null when absent or unreadable: the span does not depend on it. */
    private static Instant time(String t) {
        if (t == null) {
            return null;
        }
        try {
            return StoreItems.timestamp(t);
        } catch (DateTimeParseException unreadable) {
            return null; // without it, placing the stream relies on the other times
        }
    }

    private static List<String> types(Map<String, AttributeValue> img) {
        AttributeValue c = img.get("c");
        if (c == null) {
            throw new Bad("the Tip has no attribute c (its event types)");
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

    /**
     * The earliest of DynamoDB's creation time and the new events' own {@code t}: no later than the
     * write. Unreadable timestamps are left out rather than rejected: the span itself is sound.
     */
    private static Instant writtenAt(ChangeRecord r, List<String> times, int a) {
        Instant earliest = r.approximateCreation();
        for (int k = Math.max(0, times.size() - a); k < times.size(); k++) {
            Instant at = time(times.get(k));
            if (at != null && (earliest == null || at.isBefore(earliest))) {
                earliest = at;
            }
        }
        return earliest;
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

    private static final class Bad extends RuntimeException {
        Bad(String message) {
            super(message, null, false, false);
        }
    }
}
