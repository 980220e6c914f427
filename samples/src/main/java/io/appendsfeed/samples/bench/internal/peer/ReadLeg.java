package io.appendsfeed.samples.bench.internal.peer;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
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
 * @param runs how many reads this is the median of, by {@code eventsPerSecond}; {@code eventsPerSecondMin}/{@code Max}
 *             their spread
 */
public record ReadLeg(String reader, String index, boolean bodies, long events, double seconds, double eventsPerSecond,
                      double readUnits, double readUnitsPerEvent, long requests, List<String> problems, int runs,
                      double eventsPerSecondMin, double eventsPerSecondMax) {

    public ReadLeg {
        problems = List.copyOf(problems);
    }

    public boolean correct() {
        return problems.isEmpty();
    }

    /** Reader, index and mode: what repeats of one leg share. */
    String key() {
        return reader + "/" + index + "/" + bodies;
    }

    /** The median of repeats of one leg (the lower middle of an even count), with every repeat's problems. */
    static ReadLeg median(List<ReadLeg> legs) {
        List<ReadLeg> sorted = legs.stream().sorted(Comparator.comparingDouble(ReadLeg::eventsPerSecond)).toList();
        ReadLeg m = sorted.get((sorted.size() - 1) / 2);
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < legs.size(); i++) {
            for (String p : legs.get(i).problems()) {
                problems.add((legs.size() > 1 ? "run " + (i + 1) + ": " : "") + p);
            }
        }
        return new ReadLeg(m.reader, m.index, m.bodies, m.events, m.seconds, m.eventsPerSecond, m.readUnits, m.readUnitsPerEvent,
                m.requests, problems, legs.size(), sorted.get(0).eventsPerSecond(), sorted.get(sorted.size() - 1).eventsPerSecond());
    }

    ReadLeg withProblem(String problem) {
        List<String> ps = new ArrayList<>(problems);
        ps.add(problem);
        return new ReadLeg(reader, index, bodies, events, seconds, eventsPerSecond, readUnits, readUnitsPerEvent, requests, ps,
                runs, eventsPerSecondMin, eventsPerSecondMax);
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
                    List.of("no " + (bodies ? "WithData" : "IndexOnly") + " result: the read did not run"), 1, 0, 0);
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
        double rate = events / Math.max(seconds, 1e-9);
        return new ReadLeg("equinox-js", index, bodies, events, seconds, rate, rcu, events == 0 ? 0 : rcu / events, requests,
                problems, 1, rate, rate);
    }
}
