package io.appendsfeed.indexer.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.SameTableException;
import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.metrics.EmfMetrics;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The Lambda function: subscribe it to the store table's stream with {@code ReportBatchItemFailures}
 * on. Each invocation ingests the batch and reports, as the one batch item failure, the first
 * record not durably in the feed, so that Lambda retries from there (and bisects, or sends it to the
 * on-failure destination, as the event source mapping says). Settings: {@link LambdaSettings}.
 *
 * <p>A record without a sequence number (which Lambda never sends for a DynamoDB stream) is reported
 * as that record's failure too: the records before it are ingested, and the failure's identifier is
 * empty, since the record has none, which Lambda treats as a failure of the batch: it retries it
 * (the records already in the feed are dropped as duplicates), bisecting until the record is alone,
 * then sends its range to the on-failure destination.
 *
 * <p>While a batch is handled, the MDC holds {@value #REQUEST_ID} (the invocation's request id), so
 * log lines and the batch's metrics line carry it.
 *
 * <p>Metrics are on: each batch writes one CloudWatch Embedded Metric Format line to stdout
 * (namespace {@value EmfMetrics#NAMESPACE}, figures in {@link io.appendsfeed.indexer.IndexerMetrics}),
 * which CloudWatch Logs turns into metrics with no call from the function and no permission.
 */
public final class IndexerHandler implements RequestHandler<DynamodbEvent, StreamsEventResponse> {

    /** The MDC key of the request id: the name Lambda's own JSON log lines give it. */
    public static final String REQUEST_ID = "AWSRequestId";

    private static final Logger log = LoggerFactory.getLogger(IndexerHandler.class);

    private final Indexer indexer;
    private final String storeTable;
    /** The event source mapping's batch size, 0 when unknown: a batch this large means more records are waiting. */
    private final int batchSize;

    /**
     * Used by Lambda: settings from the environment; the index is opened at initialisation.
     *
     * @throws SameTableException when the store table is the index table
     * @throws IllegalArgumentException when a setting is missing or invalid
     * @throws io.appendsfeed.indexer.PartitionCountMismatchException when the partitions setting differs from the index
     */
    public IndexerHandler() {
        this(LambdaSettings.from(System::getenv));
    }

    /**
     * With the settings given; metrics as EMF lines on stdout.
     *
     * @throws IllegalArgumentException when the settings name no store table
     */
    public IndexerHandler(LambdaSettings settings) {
        this(Indexer.start(DynamoClients.dynamoDb(settings.dynamo()),
                settings.config().toBuilder().metrics(new EmfMetrics()).build()), requireStoreTable(settings), settings.batchSize());
    }


    /** An indexer for records of any table but the index. */
    public IndexerHandler(Indexer indexer) {
        this(indexer, null);
    }

    /**
     * @param storeTable the store table whose stream the function is mapped to: records of any other
     *                   table are refused; null to accept any table but the index
     * @throws SameTableException when the store table is the index table
     */
    public IndexerHandler(Indexer indexer, String storeTable) {
        this(indexer, storeTable, 0);
    }

    /**
     * @param storeTable as above
     * @param batchSize the event source mapping's {@code BatchSize} ({@link LambdaSettings#BATCH_SIZE}): a batch
     *                  that large tells the indexer more records are waiting, so that it may leave the epochs'
     *                  Tips behind (see {@link Indexer#ingest(List, String, boolean)}); 0 when unknown
     */
    public IndexerHandler(Indexer indexer, String storeTable, int batchSize) {
        this.indexer = Objects.requireNonNull(indexer, "indexer");
        this.storeTable = storeTable;
        if (batchSize < 0) {
            throw new IllegalArgumentException("batchSize must be >= 0 (0: unknown), was " + batchSize);
        }
        this.batchSize = batchSize;
        SameTableException.check(storeTable, indexer.config().indexTable());
    }

    /**
     * Ingests the batch. In a large batch ({@link LambdaRecords#RELEASE_BYTES} of records), each
     * record's {@code NewImage} and {@code OldImage} are released from the event (set to null) once
     * read, so that a garbage collection during the batch does not copy the records' event bodies; the
     * rest of the event is left as delivered.
     *
     * @throws SameTableException when the batch comes from the index table's own stream
     * @throws IllegalStateException when it comes from another table than the configured store table;
     *         nothing was written in either case
     */
    @Override
    public StreamsEventResponse handleRequest(DynamodbEvent event, Context context) {
        if (context == null || context.getAwsRequestId() == null) {
            return handle(event);
        }
        try (MDC.MDCCloseable ignored = MDC.putCloseable(REQUEST_ID, context.getAwsRequestId())) {
            return handle(event);
        }
    }

    private StreamsEventResponse handle(DynamodbEvent event) {
        checkSource(event);
        // a large batch's images are released from the event once converted: see LambdaRecords.convertReleasing
        LambdaRecords.Converted converted = LambdaRecords.convertReleasing(event);
        int delivered = event.getRecords() == null ? 0 : event.getRecords().size();
        BatchOutcome outcome = indexer.ingest(converted.records(), null, LambdaSettings.moreWaiting(batchSize, delivered));
        if (!outcome.complete()) {
            return failure(outcome.firstNotIngested());
        }
        if (converted.unidentified() != null) {
            log.error("{}: the records before it are in the feed; it is reported as the batch item failure (an empty identifier:"
                    + " Lambda retries the batch, bisecting, then sends its range to the on-failure destination)", converted.unidentified());
            return failure("");
        }
        return new StreamsEventResponse(List.of());
    }

    private static StreamsEventResponse failure(String sequenceNumber) {
        return new StreamsEventResponse(List.of(new StreamsEventResponse.BatchItemFailure(sequenceNumber)));
    }

    /**
     * The table of the records' stream ARN must be the store table, never the index. An invocation's
     * records come from one event source mapping, so one stream: the first record that names its ARN
     * is checked, and the last one as well, in case another source builds events by hand. Checking
     * every record read each one's ARN, a cache miss per record in a large batch (6% of the handler's
     * CPU at 1,000 records).
     */
    private void checkSource(DynamodbEvent event) {
        List<DynamodbEvent.DynamodbStreamRecord> records = event.getRecords();
        if (records == null || records.isEmpty()) {
            return;
        }
        DynamodbEvent.DynamodbStreamRecord first = null;
        for (DynamodbEvent.DynamodbStreamRecord r : records) { // the runtime's lists may be linked: no get(k)
            if (r.getEventSourceARN() != null) {
                first = r;
                break;
            }
        }
        if (first == null) {
            return;
        }
        check(first);
        DynamodbEvent.DynamodbStreamRecord last = records instanceof java.util.Deque<?> d
                ? (DynamodbEvent.DynamodbStreamRecord) d.peekLast() : records.get(records.size() - 1);
        if (last != null && last.getEventSourceARN() != null && !last.getEventSourceARN().equals(first.getEventSourceARN())) {
            check(last);
        }
    }

    private void check(DynamodbEvent.DynamodbStreamRecord r) {
        String arn = r.getEventSourceARN();
        SameTableException.check(arn, indexer.config().indexTable());
        if (storeTable != null && !SameTableException.tableName(arn).equals(SameTableException.tableName(storeTable))) {
            throw new IllegalStateException("record " + r.getEventID() + " comes from the stream " + arn + ", not from the store"
                    + " table '" + storeTable + "' (" + LambdaSettings.STORE_TABLE + "): map the function to that table's"
                    + " stream, or set " + LambdaSettings.STORE_TABLE + " to the table it is mapped to; nothing was written");
        }
    }

    private static String requireStoreTable(LambdaSettings settings) {
        if (settings.storeTable() == null) {
            throw new IllegalArgumentException(LambdaSettings.STORE_TABLE + " is not set: set it to the store table whose stream"
                    + " the function is mapped to (the template sets it from StoreStreamArn)");
        }
        return settings.storeTable();
    }
}
