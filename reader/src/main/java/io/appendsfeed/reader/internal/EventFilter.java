package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.reader.FeedEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every rule deciding which events reach the handler, in one place: streams of the wanted
 * categories (never {@code $} streams), events of the wanted types, not yet handled (at or above
 * the stream's handled index), and, when starting from a time, written at or after it. Streams and
 * types apply to the feed's spans before anything is loaded ({@link #spans}); the index and time
 * rules apply to what a handler call is about to get ({@link #select}: the write time is known only
 * once the body is loaded).
 */
public final class EventFilter {

    private final Set<String> categories;
    private final Set<String> eventTypes;

    EventFilter(Set<String> categories, Set<String> eventTypes) {
        this.categories = Set.copyOf(categories);
        this.eventTypes = Set.copyOf(eventTypes);
    }

    boolean wantsStream(StreamName stream) {
        return !stream.isReserved() && (categories.isEmpty() || categories.contains(stream.category()));
    }

    boolean wantsType(String type) {
        return eventTypes.isEmpty() || eventTypes.contains(type);
    }

    /**
     * The wanted events of an epoch event per stream, in the order streams first appear: ascending and
     * without repeats (overlapping spans give each event once).
     */
    Map<StreamName, List<FeedEvent>> spans(EpochEvent event) {
        Map<StreamName, List<FeedEvent>> byStream = new LinkedHashMap<>();
        if (event instanceof EpochEvent.Ingested ingested) {
            add(ingested.add(), byStream);
            add(ingested.app(), byStream);
        }
        return byStream;
    }

    private void add(List<Span> spans, Map<StreamName, List<FeedEvent>> byStream) {
        for (Span span : spans) {
            if (!wantsStream(span.stream())) {
                continue;
            }
            List<FeedEvent> events = byStream.computeIfAbsent(span.stream(), x -> new ArrayList<>(span.count()));
            for (int k = 0; k < span.count(); k++) {
                String type = span.types().get(k);
                if (wantsType(type)) {
                    insert(events, FeedEvent.typeOnly(span.stream(), span.index() + k, type));
                }
            }
        }
    }

    /** Keeps the list ascending without repeats; spans of one stream nearly always come in order, so this appends. */
    private static void insert(List<FeedEvent> events, FeedEvent e) {
        int k = events.size();
        while (k > 0 && events.get(k - 1).index() > e.index()) {
            k--;
        }
        if (k == 0 || events.get(k - 1).index() != e.index()) {
            events.add(k, e);
        }
    }

    /**
     * The events a handler call gets, in order.
     *
     * @param skipBelow events below this index are already handled
     * @param notBefore events written before this are left out; null for no such rule
     */
    List<FeedEvent> select(List<FeedEvent> events, long skipBelow, Instant notBefore) {
        List<FeedEvent> out = new ArrayList<>(events.size());
        for (FeedEvent e : events) {
            boolean early = notBefore != null && e.timestamp() != null && e.timestamp().isBefore(notBefore);
            if (e.index() >= skipBelow && wantsType(e.type()) && !early) {
                out.add(e);
            }
        }
        return out;
    }
}
