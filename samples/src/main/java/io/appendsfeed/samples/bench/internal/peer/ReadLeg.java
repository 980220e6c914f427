package io.appendsfeed.samples.bench.internal.peer;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * One reader reading one index from the start to the tail, in one mode.
 *
 * @param reader {@code appendsfeed} or {@code equinox-js}
 * @param index who wrote the index: {@code appendsfeed} or {@code equinox-js}
 * @param bodies whether event bodies were loaded from the store
 * @param requests DynamoDB calls the reader made
 * @param problems how what it delivered differs from the store (events twice, gaps, streams short); empty when correct
 */
public record ReadLeg(String reader, String index, boolean bodies, long events, double seconds, double eventsPerSecond,
                      double readUnits, double readUnitsPerEvent, long requests, List<String> problems) {

    public ReadLeg {
        problems = List.copyOf(problems);
    }

    public boolean correct() {
        return problems.isEmpty();
    }

    public String mode() {
        return bodies ? "with bodies" : "index only";
    }

    /**
     * One mode of equinox-js's reader from the harness's {@code read-result.json}.
     *
     * @param expectedEvents events in the store
     */
    static ReadLeg ofPeer(String index, boolean bodies, JsonNode result, long expectedEvents) {
        JsonNode r = result.path(bodies ? "WithData" : "IndexOnly");
        List<String> problems = new ArrayList<>();
        if (r.isMissingNode()) {
            return new ReadLeg("equinox-js", index, bodies, 0, 0, 0, 0, 0, 0,
                    List.of("no " + (bodies ? "WithData" : "IndexOnly") + " result: the read did not run"));
        }
        long events = r.path("events").asLong();
        double seconds = r.path("ms").asDouble() / 1000;
        double rcu = r.path("rcu").asDouble();
        long requests = 0;
        for (Iterator<JsonNode> it = r.path("calls").elements(); it.hasNext(); ) {
            requests += it.next().path("n").asLong();
        }
        if (events != expectedEvents) {
            problems.add(events + " events delivered, " + expectedEvents + " stored");
        }
        for (String f : List.of("gaps", "outOfOrder", "mismatchedStreams", "badJson")) {
            if (r.path(f).asLong() != 0) {
                problems.add(f + " " + r.path(f).asLong());
            }
        }
        if (r.path("timedOut").asBoolean(false)) {
            problems.add("timed out before the tail");
        }
        return new ReadLeg("equinox-js", index, bodies, events, seconds, events / Math.max(seconds, 1e-9), rcu,
                events == 0 ? 0 : rcu / events, requests, problems);
    }
}
