package io.appendsfeed.indexer.cli.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.StoreItem;
import io.appendsfeed.model.store.StoreScan;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Every stream of a store table and its version (the count of its events), from the model's parallel
 * {@link StoreScan} of the Tips (calves are read and dropped by DynamoDB's filter; no event bodies).
 * Streams of the feed itself ({@code $...}) are left out.
 */
public final class StoreVersions {

    private final StoreScan scan;
    private final String table;
    /** Items read (Tips and calves; the filter drops calves after reading them). */
    private final AtomicLong scanned = new AtomicLong();

    /** @param segments 1 or more */
    public StoreVersions(DynamoDbClient dynamo, String table, int segments) {
        this.scan = new StoreScan(dynamo, table, segments, 0, true);
        this.table = table;
    }

    /**
     * @return each stream's version
     * @throws IllegalStateException naming the first item that is not of the store format
     * @throws RuntimeException the first failure of any segment (the others are cancelled)
     */
    public Map<StreamName, Long> run() {
        Map<StreamName, Long> versions = new ConcurrentHashMap<>();
        scan.run(item -> {
            if (item instanceof StoreItem.Tip t) {
                versions.put(t.stream(), t.next());
            } else if (item instanceof StoreItem.Malformed m) {
                throw new IllegalStateException("table " + table + ": the item " + m.key() + " is not of the store format ("
                        + m.problem() + "); is this a store table?");
            }
        }, scanned);
        return versions;
    }

    /** Items read so far (for progress). */
    public long scanned() {
        return scanned.get();
    }
}
