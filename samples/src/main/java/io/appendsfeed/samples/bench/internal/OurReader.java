package io.appendsfeed.samples.bench.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.appendsfeed.reader.CatchUpResult;
import io.appendsfeed.reader.FeedEvent;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.HandlerResult;
import io.appendsfeed.reader.InMemoryCheckpointStore;
import io.appendsfeed.reader.InMemoryParkedStreams;
import io.appendsfeed.reader.StartPosition;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Our reader ({@link FeedReader#runUntilCaughtUp}, default settings) over an index from the start to
 * the tail, doing what the equinox-js harness's reader does with what it gets: per stream, check
 * that each event follows the last (no gap, nothing twice), and with bodies parse each body as JSON.
 * Checkpoints and parked streams are kept in memory, as the harness keeps its checkpoints, so that
 * neither reader writes to the index it reads; capacity is metered at the client.
 */
final class OurReader {

    private static final Duration TIMEOUT = Duration.ofMinutes(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private OurReader() {
    }

    /** @param local read through its measured endpoint (with the added round trip), every call metered */
    static ReadLeg read(LocalDynamo local, String index, String indexTable, String storeTable, boolean bodies,
                        Map<String, Long> expected) {
        Meter meter = new Meter();
        Map<String, Long> next = new ConcurrentHashMap<>();
        AtomicLong events = new AtomicLong();
        AtomicLong twice = new AtomicLong();
        AtomicLong gaps = new AtomicLong();
        AtomicLong badBodies = new AtomicLong();
        FeedReaderConfig config = FeedReaderConfig.builder("bench-" + (bodies ? "bodies" : "index"), indexTable, storeTable)
                .start(StartPosition.beginning()).loadBodies(bodies).build();
        CatchUpResult r;
        long start;
        try (DynamoDbClient metered = local.meteredClient(meter)) {
            start = System.nanoTime();
            // a stream's handler calls never overlap, so its entry in `next` is only ever touched by one call at a time
            r = new FeedReader(metered, config, (stream, batch) -> {
                String s = stream.toString();
                long want = next.getOrDefault(s, 0L);
                for (FeedEvent e : batch) {
                    if (e.index() < want) {
                        twice.incrementAndGet();
                    } else if (e.index() > want) {
                        gaps.incrementAndGet();
                    }
                    want = Math.max(want, e.index() + 1);
                    if (bodies && !parses(e)) {
                        badBodies.incrementAndGet();
                    }
                }
                next.put(s, want);
                events.addAndGet(batch.size());
                return HandlerResult.handled();
            }, new InMemoryCheckpointStore(), null, new InMemoryParkedStreams()).runUntilCaughtUp(TIMEOUT);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long expectedEvents = expected.values().stream().mapToLong(Long::longValue).sum();
        List<String> problems = new ArrayList<>();
        if (!r.caughtUp()) {
            problems.add("not caught up within " + TIMEOUT + "; lag " + r.lag());
        }
        if (events.get() != expectedEvents) {
            problems.add(events.get() + " events delivered, " + expectedEvents + " stored");
        }
        if (twice.get() > 0) {
            problems.add(twice.get() + " events delivered again or out of order");
        }
        if (gaps.get() > 0) {
            problems.add(gaps.get() + " gaps");
        }
        if (badBodies.get() > 0) {
            problems.add(badBodies.get() + " bodies missing or not JSON");
        }
        long mismatched = expected.entrySet().stream().filter(e -> !e.getValue().equals(next.getOrDefault(e.getKey(), 0L))).count();
        if (mismatched > 0) {
            problems.add(mismatched + " streams end at another version than the store's");
        }
        return ReadLeg.of("appendsfeed", index, bodies, events.get(), seconds, meter.readUnits(), meter.reads(), problems);
    }

    private static boolean parses(FeedEvent e) {
        if (!e.hasBody()) {
            return false;
        }
        try {
            JSON.readTree(e.data());
            return true;
        } catch (IOException x) {
            return false;
        }
    }
}
