package io.appendsfeed.indexer.internal;

import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.EventTimes;
import io.appendsfeed.indexer.RejectedRecord;
import io.appendsfeed.indexer.SourceSpan;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.store.StoreItem;
import io.appendsfeed.model.store.StoreItems;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * Turns a Streams record of a store table into a span (DESIGN.md, "The indexer", step 2): an INSERT or MODIFY
 * of a Tip with {@code a > 0} gives {@code (p, n - a, last a of c)}. REMOVE, calves, {@code a = 0}
 * and {@code $} streams are skipped. Anything else is rejected with what is wrong. The image is read by
 * the model's one item parser ({@link StoreItems#parseImage}); this adds the record's own facts (event
 * name, sequence number, DynamoDB's creation time). Pure.
 */
public final class RecordParser {

    private RecordParser() {}

    public static Parsed parse(ChangeRecord r) {
        String name = r.eventName();
        if ("REMOVE".equals(name)) {
            return new Parsed.Skipped(Parsed.SkipReason.REMOVE);
        }
        if (!"INSERT".equals(name) && !"MODIFY".equals(name)) {
            return rejected(r, "event name '" + name + "' is none of INSERT, MODIFY, REMOVE");
        }
        StoreItem item = StoreItems.parseImage(r.keys(), r.newImage(), r.eventTypes(), r.eventTimes());
        if (item instanceof StoreItem.Tip t) {
            Span tip = new Span(t.stream(), t.first(), t.types());
            Span span = tip.from(t.next() - t.appended());
            List<String> times = t.times();
            return new Parsed.Spanned(new SourceSpan(span, tip, writtenAt(r, times, (int) t.appended()), r.sequenceNumber(),
                    times(times, t.next())));
        } else if (item instanceof StoreItem.Unfolded) {
            return new Parsed.Skipped(Parsed.SkipReason.NO_NEW_EVENTS);
        } else if (item instanceof StoreItem.Calf) {
            return new Parsed.Skipped(Parsed.SkipReason.CALF);
        } else if (item instanceof StoreItem.Reserved) {
            return new Parsed.Skipped(Parsed.SkipReason.RESERVED_STREAM);
        }
        StoreItem.Malformed m = (StoreItem.Malformed) item;
        if (m.problem().equals(StoreItems.NO_IMAGE)) {
            return rejected(r, m.problem() + " (stream view type " + r.viewType()
                    + "); enable Streams on the store table with NEW_IMAGE or NEW_AND_OLD_IMAGES");
        }
        return rejected(r, m.problem());
    }

    private static Parsed rejected(ChangeRecord r, String reason) {
        return new Parsed.Rejected(new RejectedRecord(r.sequenceNumber(), r.describeKey(), reason));
    }

    /** The times of the Tip's events, parsed only when asked for (rarely: see {@link io.appendsfeed.indexer.EventTimes}). */
    private static EventTimes times(List<String> times, long n) {
        if (times.isEmpty()) {
            return EventTimes.NONE;
        }
        long first = n - times.size();
        return index -> index < first || index >= n ? null : time(times.get((int) (index - first)));
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
}
