package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The benchmark's own store: {@code events} single-event appends spread round robin over streams
 * {@code Account-0..}, each a small JSON body (~80 bytes), as a command handler appends; the streams
 * split between {@value #WRITERS} writer threads, one writer per stream.
 */
public final class Workload {

    /** What was written, and the write units it took. */
    public record Written(long events, double writeUnits) {}

    private static final int WRITERS = 4;

    private Workload() {
    }

    /** @throws IllegalStateException when an append conflicts (nothing else writes these streams) */
    public static Written write(DynamoDbClient dynamo, String table, long events, int streams) {
        Meter meter = new Meter();
        StoreClient store = new StoreClient(dynamo, StoreConfig.builder(table).meter(meter).build());
        List<Callable<Void>> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            writers.add(() -> {
                long[] version = new long[streams];
                for (long k = writer; k < events; k++) { // event k goes to stream k mod streams; writer w writes streams s, s mod WRITERS = w
                    int s = (int) (k % streams);
                    if (s % WRITERS == writer) {
                        StreamName name = StreamName.of("Account", Integer.toString(s));
                        if (!(store.append(name, Expected.version(version[s]++), List.of(event(k))) instanceof AppendResult.Written)) {
                            throw new IllegalStateException("append to " + name + " conflicted");
                        }
                    }
                }
                return null;
            });
        }
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        try {
            for (Future<Void> f : pool.invokeAll(writers)) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing the workload", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("writing the workload failed: " + e.getCause().getMessage(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
        return new Written(events, meter.writeUnits());
    }

    static EventData event(long k) {
        return EventData.json(k % 3 == 0 ? "Withdrawn" : "Deposited",
                "{\"amount\":" + (k % 1000) + ",\"currency\":\"EUR\",\"ref\":\"bench-" + k + "\"}");
    }
}
