package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.reader.FeedEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Every rule deciding which events reach the handler, in one place: streams of the wanted
 * categories (never {@code $} streams), events of the wanted types, not yet handled (at or above
 * the stream's handled index), and, when starting from a time, written at or after it. Streams and
 * types apply to the feed's spans before anything is loaded; the index and time rules apply to what
 * a handler call is about to get (the write time is known only once the body is loaded).
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
