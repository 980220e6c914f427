package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The benchmark's own store: {@code events} single-event appends, round robin over the streams
 * {@code Account-0..}, each a small JSON body (~80 bytes), as a command handler appends: a batch of
 * the table's stream then holds as many streams as it can.
 */
public final class Workload {

    /** What was written, and the write units it took. */
    public record Written(long events, double writeUnits) {}

    private Workload() {
    }

    /** @throws IllegalStateException when an append conflicts (nothing else writes these streams) */
    public static Written write(DynamoDbClient dynamo, String table, long events, int streams) {
        Meter meter = new Meter();
        StoreClient store = new StoreClient(dynamo, StoreConfig.builder(table).meter(meter).build());
        for (long k = 0; k < events; k++) {
            StreamName s = StreamName.of("Account", Long.toString(k % streams));
            if (!(store.append(s, Expected.version(k / streams), List.of(event(k))) instanceof AppendResult.Written)) {
                throw new IllegalStateException("append to " + s + " conflicted");
            }
        }
        return new Written(events, meter.writeUnits());
    }

    static EventData event(long k) {
        return EventData.json(k % 3 == 0 ? "Withdrawn" : "Deposited",
                "{\"amount\":" + (k % 1000) + ",\"currency\":\"EUR\",\"ref\":\"bench-" + k + "\"}");
    }
}
