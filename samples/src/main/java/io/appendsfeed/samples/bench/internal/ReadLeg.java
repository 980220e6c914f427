package io.appendsfeed.samples.bench.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One reader reading one index from the start to the tail, in one mode: the read with the median rate
 * of {@code runs}, with their spread.
 *
 * @param reader {@code appendsfeed} or {@code equinox-js}
 * @param index who wrote the index
 * @param bodies whether event bodies were loaded from the store
 * @param requests DynamoDB calls the reader made
 * @param usdPerMillionEvents the read units' cost per million events, at AWS's on-demand price
 * @param problems how what it delivered differs from the store (every run's); empty when correct
 */
public record ReadLeg(String reader, String index, boolean bodies, long events, double seconds, double eventsPerSecond,
                      double eventsPerSecondMin, double eventsPerSecondMax, int runs, double readUnits,
                      double readUnitsPerEvent, double usdPerMillionEvents, long requests, List<String> problems) {

    static ReadLeg of(String reader, String index, boolean bodies, long events, double seconds, double readUnits, long requests,
                      List<String> problems) {
        double rate = events / Math.max(seconds, 1e-9);
        double perEvent = events == 0 ? 0 : readUnits / events;
        return new ReadLeg(reader, index, bodies, events, seconds, rate, rate, rate, 1, readUnits, perEvent,
                Indexing.Cost.reading(perEvent), requests, List.copyOf(problems));
    }

    /** The median of repeats of one leg (the lower middle of an even count), with every repeat's problems. */
    static ReadLeg median(List<ReadLeg> legs) {
        List<ReadLeg> sorted = legs.stream().sorted(Comparator.comparingDouble(ReadLeg::eventsPerSecond)).toList();
        ReadLeg m = sorted.get((sorted.size() - 1) / 2);
        List<String> problems = new ArrayList<>();
        legs.forEach(l -> problems.addAll(l.problems()));
        return new ReadLeg(m.reader, m.index, m.bodies, m.events, m.seconds, m.eventsPerSecond, sorted.get(0).eventsPerSecond,
                sorted.get(sorted.size() - 1).eventsPerSecond, legs.size(), m.readUnits, m.readUnitsPerEvent,
                m.usdPerMillionEvents, m.requests, problems);
    }

    /**
     * One mode of equinox-js's reader from the harness's {@code read-result.json}.
     *
     * @param failure why the read process failed, or null
     */
    static ReadLeg ofPeer(String index, boolean bodies, JsonNode result, long storedEvents, String failure) {
        JsonNode r = result.path(bodies ? "WithData" : "IndexOnly");
        List<String> problems = new ArrayList<>();
        if (failure != null) {
            problems.add(failure);
        }
        if (r.isMissingNode()) {
            problems.add("no " + (bodies ? "WithData" : "IndexOnly") + " result: the read did not run");
        }
        long events = r.path("events").asLong();
        if (events != storedEvents) {
            problems.add(events + " events delivered, " + storedEvents + " stored");
        }
        for (String f : List.of("gaps", "outOfOrder", "mismatchedStreams", "badJson")) {
            if (r.path(f).asLong() != 0) {
                problems.add(f + " " + r.path(f).asLong());
            }
        }
        if (r.path("timedOut").asBoolean(false)) {
            problems.add("timed out before the tail");
        }
        long requests = 0;
        for (JsonNode call : r.path("calls")) {
            requests += call.path("n").asLong();
        }
        return of("equinox-js", index, bodies, events, r.path("ms").asDouble() / 1000, r.path("rcu").asDouble(), requests, problems);
    }
}
