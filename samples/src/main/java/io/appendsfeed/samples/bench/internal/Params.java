package io.appendsfeed.samples.bench.internal;

import java.util.List;
import java.util.Objects;

/**
 * What a run measures and at what sizes.
 *
 * @param mode {@code quick} or {@code full}
 * @param scale quick mode's sizes for the 10k/100k/1M scenarios are these divided by 10; 1 otherwise
 * @param events events written for the index and read scenarios
 * @param streams streams they are spread over
 * @param batchLimits {@code GetRecords} limits for the index scenario
 * @param latencyEvents events timed from append to handler
 * @param latencyRate appends per second in the latency scenario
 * @param coldEvents feed sizes for the cold start scenario
 * @param memoryEvents feed size the reader walks in the memory scenario
 * @param scenarios which to run, of {@code index, read, latency, cold, memory} (read needs index)
 */
public record Params(String mode, int scale, LocalDynamo.Transport transport, long events, int streams,
                     List<Integer> batchLimits, int latencyEvents, double latencyRate, List<Long> coldEvents,
                     long memoryEvents, List<String> scenarios) {

    public static final List<String> SCENARIOS = List.of("index", "read", "latency", "cold", "memory");

    public Params {
        Objects.requireNonNull(transport, "transport");
        batchLimits = List.copyOf(batchLimits);
        coldEvents = List.copyOf(coldEvents);
        scenarios = List.copyOf(scenarios);
        for (String s : scenarios) {
            if (!SCENARIOS.contains(s)) {
                throw new IllegalArgumentException("unknown scenario '" + s + "'; choose from " + SCENARIOS);
            }
        }
        if (scenarios.contains("read") && !scenarios.contains("index")) {
            throw new IllegalArgumentException("the read scenario reads the index the index scenario builds: add 'index'");
        }
        if (events < 1 || streams < 1 || streams > events) {
            throw new IllegalArgumentException("need 1 <= streams <= events, got " + streams + " streams, " + events + " events");
        }
        for (int l : batchLimits) {
            if (l < 1 || l > 1000) {
                throw new IllegalArgumentException("GetRecords limits are 1..1000, got " + l);
            }
        }
        if (latencyEvents < 10 || latencyRate <= 0) {
            throw new IllegalArgumentException("need at least 10 latency events at a positive rate, got " + latencyEvents
                    + " at " + latencyRate + "/s");
        }
        for (long c : coldEvents) {
            if (c < SyntheticFeed.SPAN_EVENTS) {
                throw new IllegalArgumentException("cold-start sizes must be >= " + SyntheticFeed.SPAN_EVENTS + ", got " + c);
            }
        }
        if (memoryEvents < SyntheticFeed.SPAN_EVENTS) {
            throw new IllegalArgumentException("memory events must be >= " + SyntheticFeed.SPAN_EVENTS + ", got " + memoryEvents);
        }
    }

    boolean runs(String scenario) {
        return scenarios.contains(scenario);
    }

    /** {@code 1M}, or in quick mode with the default sizes {@code 100k (1M / 10)}. */
    String label(long events) {
        return scale == 1 ? size(events) : size(events) + " (" + size(events * scale) + " / " + scale + ")";
    }

    static String size(long n) {
        if (n >= 1_000_000 && n % 1_000_000 == 0) return n / 1_000_000 + "M";
        if (n >= 1_000 && n % 1_000 == 0) return n / 1_000 + "k";
        return Long.toString(n);
    }
}
