package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.reader.FeedEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns an epoch event into the events wanted, per stream in index order (by {@link EventFilter}'s
 * stream and type rules, before anything is loaded); overlapping spans give each event once.
 */
final class SpanFilter {

    private final EventFilter filter;

    SpanFilter(EventFilter filter) {
        this.filter = filter;
    }

    /** Per stream, in the order streams first appear: the wanted events, ascending and without repeats. */
    Map<StreamName, List<FeedEvent>> apply(EpochEvent event) {
        Map<StreamName, List<FeedEvent>> byStream = new LinkedHashMap<>();
        if (event instanceof EpochEvent.Ingested ingested) {
            add(ingested.add(), byStream);
            add(ingested.app(), byStream);
        }
        return byStream;
    }

    private void add(List<Span> spans, Map<StreamName, List<FeedEvent>> byStream) {
        for (Span span : spans) {
            if (!filter.wantsStream(span.stream())) {
                continue;
            }
            List<FeedEvent> events = byStream.computeIfAbsent(span.stream(), x -> new ArrayList<>(span.count()));
            for (int k = 0; k < span.count(); k++) {
                String type = span.types().get(k);
                long index = span.index() + k;
                if (filter.wantsType(type)) {
                    insert(events, FeedEvent.typeOnly(span.stream(), index, type));
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
        if (k > 0 && events.get(k - 1).index() == e.index()) {
            return;
        }
        events.add(k, e);
    }
}
