package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.poller.PollerConfig;
import io.appendsfeed.indexer.poller.StreamsPoller;
import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.StartPosition;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * From append to handler, at the defaults: one writer appends at {@value #RATE_PER_SECOND}/s over {@value #STREAMS}
 * streams, the local poller indexes, a reader with bodies times each arrival; all through the measured endpoint. The
 * first 10% (at most 20) are warm-up.
 */
public final class LatencyBench {

    /** Milliseconds from the start of the append to the handler call. */
    public record Result(int events, int warmupEvents, double ratePerSecond, double roundTripMs, long pollerIdleWaitMs,
                         long readerPollIntervalMs, double p50Ms, double p99Ms, double maxMs, double meanMs) {}

    static final double RATE_PER_SECOND = 100;
    static final int STREAMS = 50;

    private LatencyBench() {
    }

    /** @throws IllegalStateException when not every event reaches the handler in time */
    public static Result run(LocalDynamo local, int events, double roundTripMs) {
        String storeTable = local.storeTable("latency-store");
        String indexTable = local.indexTable("latency-index");
        int warmup = Math.min(20, events / 10);
        AtomicLongArray sentAt = new AtomicLongArray(events); // event k's append started; 0 before, and once it arrived
        double[] latencyMs = new double[events];
        CountDownLatch arrived = new CountDownLatch(events);
        PollerConfig pollerConfig = PollerConfig.of(storeTable);
        FeedReaderConfig readerConfig = FeedReaderConfig.builder("bench-latency", indexTable, storeTable)
                .start(StartPosition.beginning()).build();
        try (DynamoDbClient dynamo = DynamoClients.dynamoDb(DynamoClients.Settings.local(local.measured()));
             DynamoDbStreamsClient streams = DynamoClients.streams(DynamoClients.Settings.local(local.measured()));
             StreamsPoller poller = new StreamsPoller(dynamo, streams, Indexer.start(dynamo, IndexerConfig.builder(indexTable).build()),
                     pollerConfig).start();
             FeedReader reader = new FeedReader(dynamo, readerConfig, (stream, batch) -> {
                 long now = System.nanoTime();
                 for (FeedEvent e : batch) {
                     int k = (int) (e.index() * STREAMS + Integer.parseInt(stream.id()));
                     long sent = sentAt.getAndSet(k, 0);
                     if (sent != 0) { // once, however often it is delivered
                         latencyMs[k] = (now - sent) / 1e6;
                         arrived.countDown();
                     }
                 }
                 return HandlerResult.handled();
             })) {
            reader.start();
            StoreClient store = new StoreClient(dynamo, StoreConfig.builder(storeTable).build());
            long start = System.nanoTime();
            for (int k = 0; k < events; k++) { // event k: stream k mod STREAMS, index k / STREAMS, at k / rate seconds
                long due = start + (long) (k / RATE_PER_SECOND * 1e9);
                for (long wait; (wait = due - System.nanoTime()) > 0; ) {
                    LockSupport.parkNanos(wait);
                }
                sentAt.set(k, System.nanoTime());
                LocalDynamo.append(store, "Latency", k, STREAMS);
            }
            long waitMs = (long) (events / RATE_PER_SECOND * 1000) + 60_000;
            if (!arrived.await(waitMs, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(arrived.getCount() + " of " + events + " events did not reach the handler in "
                        + waitMs + " ms; poller stopped shards: " + poller.stoppedShards());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for events", e);
        }
        double[] sorted = Arrays.copyOfRange(latencyMs, warmup, events);
        Arrays.sort(sorted);
        return new Result(sorted.length, warmup, RATE_PER_SECOND, roundTripMs, pollerConfig.idleWait().toMillis(),
                readerConfig.pollInterval().toMillis(), rank(sorted, 50), rank(sorted, 99), sorted[sorted.length - 1],
                Arrays.stream(sorted).average().orElseThrow());
    }

    /** Nearest-rank percentile {@code p} of sorted values. */
    private static double rank(double[] sorted, double p) {
        return sorted[Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(p / 100 * sorted.length) - 1))];
    }
}
