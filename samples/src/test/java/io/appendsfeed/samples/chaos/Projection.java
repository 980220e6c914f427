package io.appendsfeed.samples.chaos;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.StreamHandler;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A reactor's projection, kept durably by the application (it outlives reader crashes): per stream
 * how far it is applied, and what it applied. It applies an event only at its stream's next index
 * and returns that position ({@link HandlerResult#reached}), so redeliveries are skipped; an event
 * past the next index would be a gap handed over and is recorded as a violation. Some calls fail
 * after applying (at random, by the schedule's seed), which the reader must retry.
 */
final class Projection implements StreamHandler {

    final Map<StreamName, List<String>> applied = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> applications = new ConcurrentHashMap<>();
    final List<String> violations = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger delivered = new AtomicInteger();
    final AtomicInteger failures = new AtomicInteger();
    private final AtomicInteger calls = new AtomicInteger();
    private final Map<StreamName, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    private final long seed;
    private final double failureChance;
    private final boolean bodies;

    Projection(long seed, double failureChance, boolean bodies) {
        this.seed = seed;
        this.failureChance = failureChance;
        this.bodies = bodies;
    }

    int appliedEvents() {
        return applications.size();
    }

    @Override
    public HandlerResult handle(StreamName stream, List<FeedEvent> events) {
        if (inFlight.computeIfAbsent(stream, s -> new AtomicInteger()).incrementAndGet() > 1) {
            violations.add(stream + ": two handler calls at once");
        }
        try {
            List<String> mine = applied.computeIfAbsent(stream, s -> Collections.synchronizedList(new ArrayList<>()));
            for (FeedEvent e : events) {
                delivered.incrementAndGet();
                if (e.index() > mine.size()) {
                    violations.add(stream + ": handed " + e + " while " + mine.size() + " was next (a gap)");
                    break;
                }
                if (e.index() == mine.size()) {
                    if (bodies && (e.dataText() == null || !e.dataText().contains("\"pad\""))) {
                        violations.add(stream + ": " + e + " came without its body");
                    }
                    mine.add(e.type());
                    applications.computeIfAbsent(stream + "@" + e.index(), x -> new AtomicInteger()).incrementAndGet();
                }
            }
            if (new SplittableRandom(seed * 31 + calls.incrementAndGet()).nextDouble() < failureChance) {
                failures.incrementAndGet();
                throw new IllegalStateException("handler failed after applying (injected)");
            }
            return HandlerResult.reached(mine.size());
        } finally {
            inFlight.get(stream).decrementAndGet();
        }
    }
}
