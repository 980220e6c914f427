package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Writes the benchmark's events: {@code events} single-event appends spread round robin over
 * {@code streams} streams {@code Account-0..}, each a small JSON body (~80 bytes), the way a
 * command handler appends. Streams are split between a few writer threads, one writer per stream.
 */
public final class Workload {

    /** What was written. */
    public record Written(long events, List<StreamName> streams, double seconds, double writeUnits) {}

    private static final int WRITERS = 4;

    private Workload() {
    }

    /** @throws IllegalStateException when an append conflicts (nothing else writes these streams) */
    public static Written write(DynamoDbClient dynamo, String table, long events, int streams) {
        CapacityTally tally = new CapacityTally();
        StoreClient store = new StoreClient(dynamo, StoreConfig.builder(table).meter(tally).build());
        List<StreamName> names = new ArrayList<>(streams);
        for (int s = 0; s < streams; s++) {
            names.add(StreamName.of("Account", Integer.toString(s)));
        }
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                done.add(pool.submit(() -> writeShare(store, names, events, writer)));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing the workload", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("writing the workload failed: " + e.getCause().getMessage(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
        return new Written(events, List.copyOf(names), (System.nanoTime() - start) / 1e9, tally.writeUnits());
    }

    /** Event k goes to stream k mod streams; writer w writes the streams s with s mod WRITERS = w. */
    private static void writeShare(StoreClient store, List<StreamName> names, long events, int writer) {
        int streams = names.size();
        long[] version = new long[streams];
        for (long k = 0; k < events; k++) {
            int s = (int) (k % streams);
            if (s % WRITERS != writer) {
                continue;
            }
            AppendResult r = store.append(names.get(s), Expected.version(version[s]), List.of(event(k)));
            if (r instanceof AppendResult.Written w) {
                version[s] = w.version();
            } else {
                throw new IllegalStateException("append to " + names.get(s) + " conflicted: " + r);
            }
        }
    }

    static EventData event(long k) {
        String type = k % 3 == 0 ? "Withdrawn" : "Deposited";
        return EventData.json(type, "{\"amount\":" + (k % 1000) + ",\"currency\":\"EUR\",\"ref\":\"bench-" + k + "\"}");
    }
}
