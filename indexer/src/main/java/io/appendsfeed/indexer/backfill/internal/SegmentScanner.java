package io.appendsfeed.indexer.backfill.internal;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/** Reads one segment of a parallel Scan of a store table, page by page, without event bodies. */
public final class SegmentScanner {

    private static final Map<String, String> NAMES = Map.of("#p", "p", "#i", "i", "#n", "n", "#c", "c");

    private final DynamoDbClient dynamo;
    private final String table;
    private final int segment;
    private final int totalSegments;
    private final int pageSize;
    private final RateLimiter limiter;

    public SegmentScanner(DynamoDbClient dynamo, String table, int segment, int totalSegments, int pageSize, RateLimiter limiter) {
        this.dynamo = dynamo;
        this.table = table;
        this.segment = segment;
        this.totalSegments = totalSegments;
        this.pageSize = pageSize;
        this.limiter = limiter;
    }

    /**
     * Hands each item to {@code sink}, until the segment ends or {@code cancelled} says so.
     *
     * @throws RuntimeException from DynamoDB (after the SDK's retries)
     */
    public void scan(Consumer<ScannedItem> sink, AtomicLong scanned, BooleanSupplier cancelled) {
        Map<String, AttributeValue> start = null;
        do {
            ScanRequest.Builder req = ScanRequest.builder().tableName(table).segment(segment).totalSegments(totalSegments)
                    .limit(pageSize).projectionExpression("#p, #i, #n, #c").expressionAttributeNames(NAMES);
            if (start != null) {
                req.exclusiveStartKey(start);
            }
            ScanResponse page = dynamo.scan(req.build());
            List<Map<String, AttributeValue>> items = page.items();
            for (Map<String, AttributeValue> item : items) {
                sink.accept(ScannedItem.parse(item));
                scanned.incrementAndGet();
            }
            limiter.acquire(items.size());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null && !cancelled.getAsBoolean());
    }
}
