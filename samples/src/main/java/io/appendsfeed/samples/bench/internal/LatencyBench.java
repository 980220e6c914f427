package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.poller.PollerConfig;
import io.appendsfeed.indexer.poller.StreamsPoller;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.reader.FeedEvent;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.HandlerResult;
import io.appendsfeed.reader.StartPosition;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Scenario 3: from append to handler, everything at its defaults: a writer appends one event at a
 * time at a steady rate and stamps each (by stream and index) just before its append; the local
 * poller indexes; a reader with bodies hands the events to a handler that records arrival. The first
 * events (warm-up) are not counted.
 */
public final class LatencyBench {

    /** Milliseconds from the start of the append to the handler call. */
    public record Result(int events, int warmupEvents, double ratePerSecond, long pollerIdleWaitMs,
                         long readerPollIntervalMs, double p50Ms, double p99Ms, double maxMs, double meanMs) {}

    private LatencyBench() {
    }

    /** @throws IllegalStateException when not every event reaches the handler in time */
    public static Result run(LocalDynamo local, String storeTable, String indexTable, int events, int streams,
                             double ratePerSecond) {
        local.storeTable(storeTable);
        local.indexTable(indexTable);
        int warmup = Math.min(20, events / 10);
        Map<String, Long> sentAt = new ConcurrentHashMap<>();
        double[] latencyMs = new double[events];
        CountDownLatch arrived = new CountDownLatch(events);
        PollerConfig pollerConfig = PollerConfig.builder(storeTable).build();
        FeedReaderConfig readerConfig = FeedReaderConfig.builder("bench-latency", indexTable, storeTable)
                .start(StartPosition.beginning()).build();
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable).build());
        try (StreamsPoller poller = new StreamsPoller(local.dynamo(), local.streams(), indexer, pollerConfig).start();
             FeedReader reader = new FeedReader(local.dynamo(), readerConfig, (stream, batch) -> {
                 long now = System.nanoTime();
                 for (FeedEvent e : batch) {
                     Long sent = sentAt.remove(key(stream, e.index()));
                     if (sent != null) {
                         latencyMs[(int) (e.index() * streams + Integer.parseInt(stream.id()))] = (now - sent) / 1e6;
                         arrived.countDown();
                     }
                 }
                 return HandlerResult.handled();
             })) {
            reader.start();
            write(local, storeTable, events, streams, ratePerSecond, sentAt);
            long waitMs = (long) (events / ratePerSecond * 1000) + 60_000;
            if (!arrived.await(waitMs, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(arrived.getCount() + " of " + events + " events did not reach the handler in "
                        + waitMs + " ms; poller stopped shards: " + poller.stoppedShards());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for events", e);
        }
        double[] measured = Arrays.copyOfRange(latencyMs, warmup, events);
        Percentiles p = new Percentiles(measured);
        return new Result(events - warmup, warmup, ratePerSecond, pollerConfig.idleWait().toMillis(),
                readerConfig.pollInterval().toMillis(), p.at(50), p.at(99), p.max(),
                Arrays.stream(measured).average().orElseThrow());
    }

    /** Event k goes to stream {@code k mod streams} at index {@code k / streams}, at {@code k / rate} seconds. */
    private static void write(LocalDynamo local, String storeTable, int events, int streams, double rate,
                              Map<String, Long> sentAt) {
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).build());
        long start = System.nanoTime();
        for (int k = 0; k < events; k++) {
            long due = start + (long) (k / rate * 1e9);
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            StreamName s = StreamName.of("Latency", Integer.toString(k % streams));
            long index = k / streams;
            sentAt.put(key(s, index), System.nanoTime());
            AppendResult r = store.append(s, Expected.version(index), List.of(Workload.event(k)));
            if (!(r instanceof AppendResult.Written)) {
                throw new IllegalStateException("append to " + s + " conflicted: " + r);
            }
        }
    }

    private static String key(StreamName stream, long index) {
        return stream + "/" + index;
    }
}
