package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.reader.CatchUpResult;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.HandlerResult;
import io.appendsfeed.reader.StartPosition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Scenario 2: the same events read four ways, one after the other: the feed index-only and with
 * bodies (reader SDK, {@code runUntilCaughtUp} from the beginning), the DynamoDB Streams API
 * directly (every shard, new images parsed and bodies decoded), and a rebuild that queries every
 * stream ({@code readAll}) with as many threads as the reader has handler slots.
 */
public final class ReadBench {

    /**
     * One way of reading.
     *
     * @param readUnits RCU charged (Streams: none; {@code GetRecords} calls are billed per request)
     * @param requests DynamoDB calls made (Streams: {@code GetRecords})
     */
    public record Leg(String name, long events, double seconds, double eventsPerSecond, double readUnits,
                      double readUnitsPerEvent, long requests) {}

    /** The four legs and how they compare. */
    public record Result(Leg feedIndexOnly, Leg feedWithBodies, Leg streamsDirect, Leg queryEveryStream,
                         Ratios ratios) {}

    /**
     * @param feedIndexOnlyVsStreams events/s index-only ÷ events/s straight from Streams
     * @param feedBodiesVsStreams events/s with bodies ÷ events/s straight from Streams
     * @param feedBodiesVsQuery events/s with bodies ÷ events/s querying every stream
     * @param readUnitsBodiesVsQuery RCU per event with bodies ÷ RCU per event querying every stream
     */
    public record Ratios(double feedIndexOnlyVsStreams, double feedBodiesVsStreams, double feedBodiesVsQuery,
                         double readUnitsBodiesVsQuery) {}

    private static final Duration CATCH_UP_TIMEOUT = Duration.ofMinutes(10);
    /** The rebuild gets the parallelism the reader has by default (its handler slots). */
    private static final int QUERY_THREADS = FeedReaderConfig.builder("bench", "index", "store").build().maxConcurrentStreams();

    private ReadBench() {
    }

    /** @throws IllegalStateException when a leg does not see exactly the events written */
    public static Result run(LocalDynamo local, String storeTable, String indexTable, Workload.Written written) {
        Leg indexOnly = feed(local, storeTable, indexTable, false, written.events());
        Leg bodies = feed(local, storeTable, indexTable, true, written.events());
        Leg streams = streamsDirect(local, storeTable, written.events());
        Leg query = queryEveryStream(local, storeTable, written);
        return new Result(indexOnly, bodies, streams, query, new Ratios(
                indexOnly.eventsPerSecond() / streams.eventsPerSecond(),
                bodies.eventsPerSecond() / streams.eventsPerSecond(),
                bodies.eventsPerSecond() / query.eventsPerSecond(),
                bodies.readUnitsPerEvent() / query.readUnitsPerEvent()));
    }

    private static Leg feed(LocalDynamo local, String storeTable, String indexTable, boolean bodies, long expected) {
        CapacityTally tally = new CapacityTally();
        AtomicLong events = new AtomicLong();
        AtomicLong missingBodies = new AtomicLong();
        FeedReaderConfig config = FeedReaderConfig.builder(bodies ? "bench-bodies" : "bench-index", indexTable, storeTable)
                .start(StartPosition.beginning()).loadBodies(bodies).build();
        long start = System.nanoTime();
        CatchUpResult r = new FeedReader(new MeteredClient(local.dynamo(), tally), config, (stream, batch) -> {
            events.addAndGet(batch.size());
            if (bodies) {
                batch.stream().filter(e -> !e.hasBody()).forEach(e -> missingBodies.incrementAndGet());
            }
            return HandlerResult.handled();
        }).runUntilCaughtUp(CATCH_UP_TIMEOUT);
        double seconds = (System.nanoTime() - start) / 1e9;
        String name = bodies ? "feed, with bodies" : "feed, index only";
        if (!r.caughtUp() || events.get() != expected || missingBodies.get() > 0) {
            throw new IllegalStateException(name + ": caught up " + r.caughtUp() + ", " + events.get() + " events of "
                    + expected + ", " + missingBodies.get() + " without body; lag " + r.lag());
        }
        return new Leg(name, events.get(), seconds, events.get() / seconds, tally.readUnits(),
                tally.readUnits() / events.get(), tally.calls());
    }

    private static Leg streamsDirect(LocalDynamo local, String storeTable, long expected) {
        long[] events = {0};
        long start = System.nanoTime();
        long calls = StreamsScan.scan(local.dynamo(), local.streams(), storeTable, 1000,
                batch -> batch.forEach(r -> events[0] += NewImageEvents.of(r).size()));
        double seconds = (System.nanoTime() - start) / 1e9;
        if (events[0] != expected) {
            throw new IllegalStateException("Streams directly: " + events[0] + " events of " + expected);
        }
        return new Leg("DynamoDB Streams directly", events[0], seconds, events[0] / seconds, 0, 0, calls);
    }

    private static Leg queryEveryStream(LocalDynamo local, String storeTable, Workload.Written written) {
        CapacityTally tally = new CapacityTally();
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).meter(tally).build());
        ExecutorService pool = Executors.newFixedThreadPool(QUERY_THREADS);
        long start = System.nanoTime();
        long events = 0;
        try {
            List<Future<Integer>> reads = new ArrayList<>();
            for (StreamName s : written.streams()) {
                reads.add(pool.submit(() -> store.readAll(s, Read.forward(0)).size()));
            }
            for (Future<Integer> f : reads) {
                events += f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while querying streams", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("querying a stream failed: " + e.getCause().getMessage(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (events != written.events()) {
            throw new IllegalStateException("query every stream: " + events + " events of " + written.events());
        }
        return new Leg("query every stream", events, seconds, events / seconds, tally.readUnits(),
                tally.readUnits() / events, tally.calls());
    }
}
