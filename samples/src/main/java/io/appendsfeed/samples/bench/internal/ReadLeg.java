package io.appendsfeed.samples.bench.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.reader.CatchUpResult;
import io.appendsfeed.reader.FeedEvent;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.HandlerResult;
import io.appendsfeed.reader.InMemoryCheckpointStore;
import io.appendsfeed.reader.InMemoryParkedStreams;
import io.appendsfeed.reader.StartPosition;
import io.appendsfeed.samples.demo.Agreement;
import io.appendsfeed.samples.demo.Agreement.Tally;
import io.appendsfeed.samples.demo.FeedTally.StreamCounter;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

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

    private static final Duration TIMEOUT = Duration.ofMinutes(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Our reader ({@link FeedReader#runUntilCaughtUp}, default settings) from the start to the tail, every call metered;
     * checks what the harness's reader checks: per stream each event follows the last (no gap, nothing twice) up to the
     * store's version, each body parses as JSON. Checkpoints in memory: neither reader writes to the index.
     *
     * @param stored per stream, the events the store holds
     */
    static ReadLeg ours(LocalDynamo local, String index, String indexTable, String storeTable, boolean bodies,
                        Map<StreamName, Long> stored) {
        Meter meter = new Meter();
        StreamCounter delivered = new StreamCounter(true);
        AtomicLong events = new AtomicLong();
        AtomicLong badBodies = new AtomicLong();
        FeedReaderConfig config = FeedReaderConfig.builder("bench-" + (bodies ? "bodies" : "index"), indexTable, storeTable)
                .start(StartPosition.beginning()).loadBodies(bodies).build();
        CatchUpResult r;
        double seconds;
        try (DynamoDbClient metered = local.meteredClient(meter)) {
            long start = System.nanoTime();
            r = new FeedReader(metered, config, (stream, batch) -> {
                for (FeedEvent e : batch) {
                    delivered.record(stream, e.index(), 1);
                    if (bodies && !parses(e)) {
                        badBodies.incrementAndGet();
                    }
                }
                events.addAndGet(batch.size());
                return HandlerResult.handled();
            }, new InMemoryCheckpointStore(), null, new InMemoryParkedStreams()).runUntilCaughtUp(TIMEOUT);
            seconds = (System.nanoTime() - start) / 1e9;
        }
        Agreement.Report agreement = Agreement.check(List.of(Tally.of("store", stored), delivered.tally("delivered")), List.of());
        long total = stored.values().stream().mapToLong(Long::longValue).sum();
        List<String> problems = new ArrayList<>();
        if (!r.caughtUp()) {
            problems.add("not caught up within " + TIMEOUT + "; lag " + r.lag());
        }
        if (events.get() != total) {
            problems.add(events.get() + " events delivered, " + total + " stored");
        }
        if (!agreement.agrees() || badBodies.get() > 0) {
            problems.add(agreement.problems().size() + " events out of order (a gap or twice), " + badBodies.get()
                    + " bodies missing or not JSON, " + agreement.mismatches().size() + " streams end at another version than the store's");
        }
        Meter.Totals t = meter.take();
        return of("appendsfeed", index, bodies, events.get(), seconds, t.readUnits(), t.reads(), problems);
    }

    private static boolean parses(FeedEvent e) {
        try {
            return e.hasBody() && JSON.readTree(e.data()) != null;
        } catch (IOException x) {
            return false;
        }
    }

    static ReadLeg of(String reader, String index, boolean bodies, long events, double seconds, double readUnits, long requests,
                      List<String> problems) {
        double rate = events / Math.max(seconds, 1e-9);
        double perEvent = events == 0 ? 0 : readUnits / events;
        return new ReadLeg(reader, index, bodies, events, seconds, rate, rate, rate, 1, readUnits, perEvent,
                Indexing.Cost.reading(perEvent), requests, List.copyOf(problems));
    }

    /** The median of repeats of one leg (the lower middle of an even count), with every repeat's problems. */
    static ReadLeg median(List<ReadLeg> legs) {
        ReadLeg m = Report.median(legs, ReadLeg::eventsPerSecond);
        return new ReadLeg(m.reader, m.index, m.bodies, m.events, m.seconds, m.eventsPerSecond,
                legs.stream().mapToDouble(ReadLeg::eventsPerSecond).min().orElseThrow(),
                legs.stream().mapToDouble(ReadLeg::eventsPerSecond).max().orElseThrow(), legs.size(), m.readUnits,
                m.readUnitsPerEvent, m.usdPerMillionEvents, m.requests, legs.stream().flatMap(l -> l.problems().stream()).toList());
    }

    /** One mode of equinox-js's reader from the harness's {@code read-result.json} (the harness checked it against the store). */
    static ReadLeg ofPeer(String index, boolean bodies, JsonNode result, long storedEvents) {
        JsonNode r = result.path(bodies ? "WithData" : "IndexOnly");
        long events = r.path("events").asLong();
        List<String> problems = events == storedEvents ? List.of() : List.of(events + " events delivered, " + storedEvents + " stored");
        long requests = 0;
        for (JsonNode call : r.path("calls")) {
            requests += call.path("n").asLong();
        }
        return of("equinox-js", index, bodies, events, r.path("ms").asDouble() / 1000, r.path("rcu").asDouble(), requests, problems);
    }
}
