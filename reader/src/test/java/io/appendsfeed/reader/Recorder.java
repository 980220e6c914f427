package io.appendsfeed.reader;

import io.appendsfeed.model.StreamName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.StreamHandler.FeedEvent;

/** A handler that records what it was given, per stream, and checks nobody handles one stream twice at once. */
class Recorder implements StreamHandler {

    final Map<StreamName, List<FeedEvent>> byStream = new ConcurrentHashMap<>();
    final Map<StreamName, AtomicInteger> calls = new ConcurrentHashMap<>();
    final AtomicInteger overlaps = new AtomicInteger();
    private final Map<StreamName, AtomicInteger> inFlight = new ConcurrentHashMap<>();

    @Override
    public HandlerResult handle(StreamName stream, List<FeedEvent> events) throws Exception {
        if (inFlight.computeIfAbsent(stream, s -> new AtomicInteger()).incrementAndGet() > 1) {
            overlaps.incrementAndGet();
        }
        try {
            calls.computeIfAbsent(stream, s -> new AtomicInteger()).incrementAndGet();
            HandlerResult r = apply(stream, events);
            byStream.computeIfAbsent(stream, s -> java.util.Collections.synchronizedList(new ArrayList<>())).addAll(events);
            return r;
        } finally {
            inFlight.get(stream).decrementAndGet();
        }
    }

    /** Override to fail or return a position. */
    HandlerResult apply(StreamName stream, List<FeedEvent> events) throws Exception {
        return HandlerResult.handled();
    }

    List<Long> indices(String stream) {
        return byStream.getOrDefault(StreamName.parse(stream), List.of()).stream().map(FeedEvent::index).toList();
    }

    int total() {
        return byStream.values().stream().mapToInt(List::size).sum();
    }
}
