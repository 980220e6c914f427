package io.appendsfeed.model.store;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * A parallel Scan of a store table in segments, each item read as {@code p, i, n, c} and handed on as a
 * {@link StoreItem}. DynamoDB charges a Scan by the whole items whatever it projects: the projection saves network.
 */
public final class StoreScan {

    private static final Map<String, String> NAMES = Map.of("#p", StoreItems.STREAM, "#i", StoreItems.RANGE, "#n", StoreItems.NEXT, "#c", StoreItems.TYPES);
    private static final Map<String, AttributeValue> TIP = Map.of(":tip", AttributeValue.fromN(Long.toString(StoreItems.TIP_INDEX)));

    private final DynamoDbClient dynamo;
    private final String table;
    private final int segments;
    private final int pageSize;
    private final boolean tipsOnly;

    /**
     * @param segments DynamoDB's {@code TotalSegments} (the callers check their range; DynamoDB refuses others)
     * @param pageSize items per {@code Scan} request; 0 for DynamoDB's own limit (1 MB a page)
     * @param tipsOnly hand on Tips only (calves are still read and paid for)
     */
    public StoreScan(DynamoDbClient dynamo, String table, int segments, int pageSize, boolean tipsOnly) {
        this.dynamo = Objects.requireNonNull(dynamo, "dynamo");
        this.table = Objects.requireNonNull(table, "table");
        this.segments = segments;
        this.pageSize = pageSize;
        this.tipsOnly = tipsOnly;
    }

    /**
     * Reads one segment on the calling thread until it ends or {@code cancelled} says so (checked after each page).
     *
     * @param scanned counts the items DynamoDB read, those a {@code tipsOnly} scan dropped included
     * @param afterPage told each page's item count once they are handed on (to pace the reads)
     */
    public void segment(int segment, Consumer<StoreItem> sink, AtomicLong scanned, BooleanSupplier cancelled, IntConsumer afterPage) {
        ScanRequest.Builder req = ScanRequest.builder().tableName(table).segment(segment).totalSegments(segments)
                .projectionExpression("#p, #i, #n, #c").expressionAttributeNames(NAMES);
        if (pageSize > 0) {
            req.limit(pageSize);
        }
        if (tipsOnly) {
            req.filterExpression("#i = :tip").expressionAttributeValues(TIP);
        }
        for (ScanResponse page : dynamo.scanPaginator(req.build())) {
            List<Map<String, AttributeValue>> items = page.items();
            for (Map<String, AttributeValue> item : items) {
                sink.accept(StoreItems.parse(item));
            }
            scanned.addAndGet(page.scannedCount() != null ? page.scannedCount() : items.size());
            afterPage.accept(items.size());
            if (cancelled.getAsBoolean()) {
                return;
            }
        }
    }

    /** Reads every segment at once, a thread each, throwing the first failure; {@code sink} must be thread-safe. */
    public void run(Consumer<StoreItem> sink, AtomicLong scanned) {
        ExecutorService pool = Executors.newFixedThreadPool(segments, r -> {
            Thread t = new Thread(r, "appendsfeed-scan-" + table);
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> futures = IntStream.range(0, segments).<Future<?>>mapToObj(segment -> pool.submit(
                    () -> segment(segment, sink, scanned, Thread.currentThread()::isInterrupted, n -> { }))).toList();
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException("scan of " + table + " failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("scan of " + table + " interrupted", e);
        } finally {
            pool.shutdownNow();
        }
    }
}
