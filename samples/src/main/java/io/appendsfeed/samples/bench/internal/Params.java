package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.samples.bench.internal.peer.PeerBench;
import java.nio.file.Path;
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
 * @param contentionEvents events written for the contention scenario; {@code contentionStreams} their streams
 * @param contentionBatch records per batch in the contention scenario
 * @param contentionIndexers concurrency levels: indexers ingesting into one partition at once
 * @param contentionRoundTrips milliseconds of round trip added between the contention scenario's indexers and
 *                             DynamoDB Local (by {@link LatencyProxy}); each concurrency level runs at each, 0 for none
 * @param contentionBackoffMs the indexers' {@code conflictBackoff} in the contention scenario, in milliseconds
 * @param lambdaJar the indexer's shaded Lambda jar; {@code lambdaTemplate} the SAM template (its JVM flags)
 * @param lambdaRuns fresh JVMs per configuration in the Lambda cold-start scenario
 * @param peer the peer scenario's settings, or null when it does not run
 * @param work where child processes' files go (the equinox-js install, batch files, logs)
 * @param scenarios which to run, of {@link #SCENARIOS} (read needs index; peer needs {@code peer})
 */
public record Params(String mode, int scale, LocalDynamo.Transport transport, long events, int streams,
                     List<Integer> batchLimits, int latencyEvents, double latencyRate, List<Long> coldEvents,
                     long memoryEvents, long contentionEvents, int contentionStreams, int contentionBatch,
                     List<Integer> contentionIndexers, List<Double> contentionRoundTrips, long contentionBackoffMs,
                     Path lambdaJar, Path lambdaTemplate, int lambdaRuns,
                     PeerBench.Params peer, Path work, List<String> scenarios) {

    public static final List<String> SCENARIOS = List.of("index", "read", "latency", "cold", "memory", "contention", "lambda", "peer");

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
        contentionIndexers = List.copyOf(contentionIndexers);
        contentionRoundTrips = List.copyOf(contentionRoundTrips);
        if (contentionRoundTrips.isEmpty() || contentionRoundTrips.stream().anyMatch(ms -> !(ms >= 0 && ms <= 1000))) {
            throw new IllegalArgumentException("--contention-rtt: round trips of 0..1000 ms, got " + contentionRoundTrips);
        }
        if (contentionBackoffMs < 0 || contentionBackoffMs > IndexerConfig.MAX_CONFLICT_BACKOFF.toMillis()) {
            throw new IllegalArgumentException("--contention-backoff: 0.." + IndexerConfig.MAX_CONFLICT_BACKOFF.toMillis()
                    + " ms, got " + contentionBackoffMs);
        }
        if (scenarios.contains("contention") && transport != LocalDynamo.Transport.HTTP && contentionRoundTrips.stream().anyMatch(ms -> ms > 0)) {
            throw new IllegalArgumentException("--contention-rtt adds its round trip to HTTP calls: use --transport HTTP, or leave it 0");
        }
        Objects.requireNonNull(work, "work");
        if (scenarios.contains("peer") && peer == null) {
            throw new IllegalArgumentException("the peer scenario needs the equinox-js harness: give --peer-dir (see samples/BENCHMARKS.md)");
        }
        if (scenarios.contains("peer") && transport != LocalDynamo.Transport.HTTP
                || scenarios.contains("lambda") && transport != LocalDynamo.Transport.HTTP) {
            throw new IllegalArgumentException("the peer and lambda scenarios run other processes, which reach DynamoDB Local"
                    + " over HTTP only: use --transport HTTP or leave them out of --scenarios");
        }
        if (contentionEvents < contentionStreams || contentionStreams < 1 || contentionBatch < 1 || contentionBatch > 10_000
                || contentionIndexers.isEmpty() || contentionIndexers.stream().anyMatch(n -> n < 1 || n > 256)) {
            throw new IllegalArgumentException("contention: need 1 <= streams <= events, batches of 1..10,000 records and"
                    + " 1..256 indexers; got " + contentionEvents + " events, " + contentionStreams + " streams, batches of "
                    + contentionBatch + ", indexers " + contentionIndexers);
        }
        if (lambdaRuns < 1) {
            throw new IllegalArgumentException("--lambda-runs must be at least 1, got " + lambdaRuns);
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

    public boolean runs(String scenario) {
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
