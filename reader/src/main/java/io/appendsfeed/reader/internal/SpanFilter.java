package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.EpochEvent;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.reader.FeedEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns an epoch event into the events wanted, per stream in index order: spans of other
 * categories and events of other types are left out before anything is loaded; {@code $} streams
 * (never indexed) are ignored; overlapping spans give each event once.
 */
final class SpanFilter {

    private final Set<String> categories;
    private final Set<String> eventTypes;

    SpanFilter(Set<String> categories, Set<String> eventTypes) {
        this.categories = categories;
        this.eventTypes = eventTypes;
    }

    Map<StreamName, TreeMap<Long, FeedEvent>> apply(EpochEvent event) {
        Map<StreamName, TreeMap<Long, FeedEvent>> byStream = new LinkedHashMap<>();
        if (event instanceof EpochEvent.Ingested ingested) {
            List<Span> spans = new ArrayList<>(ingested.add());
            spans.addAll(ingested.app());
            for (Span span : spans) {
                if (span.stream().isReserved() || (!categories.isEmpty() && !categories.contains(span.stream().category()))) {
                    continue;
                }
                for (int k = 0; k < span.count(); k++) {
                    String type = span.types().get(k);
                    if (eventTypes.isEmpty() || eventTypes.contains(type)) {
                        byStream.computeIfAbsent(span.stream(), x -> new TreeMap<>())
                                .putIfAbsent(span.index() + k, FeedEvent.typeOnly(span.stream(), span.index() + k, type));
                    }
                }
            }
        }
        return byStream;
    }
}
