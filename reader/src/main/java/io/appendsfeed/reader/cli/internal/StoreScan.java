package io.appendsfeed.reader.cli.internal;

import io.appendsfeed.model.StreamName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * A parallel Scan of a store table that reads only the Tips' keys and versions ({@code p}, {@code n}),
 * never the event bodies: every stream and its version (the count of its events). Streams of the
 * feed itself ({@code $...}) are left out.
 */
public final class StoreScan {

    /** The Tip's range key, fixed by the store format ({@code Int32.MaxValue}). */
    static final String TIP_INDEX = "2147483647";

    private final DynamoDbClient dynamo;
    private final String table;
    private final int segments;
    /** Items read (Tips and calves; the filter drops calves after reading them). */
    private final AtomicLong scanned = new AtomicLong();
    private final AtomicLong tips = new AtomicLong();

    public StoreScan(DynamoDbClient dynamo, String table, int segments) {
        if (segments < 1) {
            throw new IllegalArgumentException("segments must be at least 1, was " + segments);
        }
        this.dynamo = dynamo;
        this.table = table;
        this.segments = segments;
    }

    /**
     * @return each stream's version
     * @throws RuntimeException the first failure of any segment (the others are cancelled)
     */
    public Map<StreamName, Long> run() {
        Map<StreamName, Long> versions = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(segments, r -> {
            Thread t = new Thread(r, "feed-verify-scan");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int s = 0; s < segments; s++) {
                int segment = s;
                futures.add(pool.submit(() -> segment(segment, versions)));
            }
            for (Future<?> f : futures) {
                f.get();
            }
            return versions;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException("scan of " + table + " failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("scan of " + table + " interrupted", e);
        } finally {
            pool.shutdownNow();
        }
    }

    private void segment(int segment, Map<StreamName, Long> versions) {
        Map<String, AttributeValue> start = null;
        do {
            ScanRequest.Builder b = ScanRequest.builder().tableName(table).segment(segment).totalSegments(segments)
                    .projectionExpression("#p, #n")
                    .filterExpression("#i = :tip")
                    .expressionAttributeNames(Map.of("#p", "p", "#n", "n", "#i", "i"))
                    .expressionAttributeValues(Map.of(":tip", AttributeValue.fromN(TIP_INDEX)));
            if (start != null) {
                b.exclusiveStartKey(start);
            }
            ScanResponse r = dynamo.scan(b.build());
            scanned.addAndGet(r.scannedCount());
            for (Map<String, AttributeValue> item : r.items()) {
                tips.incrementAndGet();
                String p = item.get("p").s();
                if (p.startsWith(StreamName.RESERVED_PREFIX)) {
                    continue;
                }
                AttributeValue n = item.get("n");
                if (n == null || n.n() == null) {
                    throw new IllegalStateException("table " + table + ": the Tip of " + p + " has no version 'n'; is this a store table?");
                }
                versions.put(StreamName.parse(p), Long.parseLong(n.n()));
            }
            start = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty() ? r.lastEvaluatedKey() : null;
        } while (start != null);
    }

    /** Items read so far (for progress). */
    public long scanned() {
        return scanned.get();
    }

    /** Tips read so far (for progress). */
    public long tips() {
        return tips.get();
    }
}
