package io.appendsfeed.reader.lambda;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.StreamHandler;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Test support: a handler that records each stream's event indices and counts calls that overlapped on one stream. */
public class Handled implements StreamHandler {

    final Map<StreamName, List<Long>> indices = new ConcurrentHashMap<>();
    final AtomicInteger calls = new AtomicInteger();
    final AtomicInteger overlaps = new AtomicInteger();
    private final Map<StreamName, AtomicInteger> inFlight = new ConcurrentHashMap<>();

    @Override
    public HandlerResult handle(StreamName stream, List<FeedEvent> events) throws Exception {
        if (inFlight.computeIfAbsent(stream, s -> new AtomicInteger()).incrementAndGet() > 1) {
            overlaps.incrementAndGet();
        }
        try {
            calls.incrementAndGet();
            apply(stream, events);
            List<Long> got = indices.computeIfAbsent(stream, s -> Collections.synchronizedList(new ArrayList<>()));
            events.forEach(e -> got.add(e.index()));
            return HandlerResult.handled();
        } finally {
            inFlight.get(stream).decrementAndGet();
        }
    }

    /** Override to fail or to take time. */
    protected void apply(StreamName stream, List<FeedEvent> events) throws Exception {}

    List<Long> of(String stream) {
        return indices.getOrDefault(StreamName.parse(stream), List.of());
    }

    int total() {
        return indices.values().stream().mapToInt(List::size).sum();
    }
}
