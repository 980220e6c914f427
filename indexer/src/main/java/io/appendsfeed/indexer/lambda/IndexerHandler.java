package io.appendsfeed.indexer.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.SameTableException;
import java.util.List;
import org.slf4j.MDC;

/**
 * The Lambda function as a {@code RequestHandler} of the runtime's {@code DynamodbEvent}: subscribe it
 * to the store table's stream with {@code ReportBatchItemFailures} on. The template deploys
 * {@link IndexerStreamHandler} instead, which does the same from the event's JSON and costs a
 * fraction of this one per record (it does not have the runtime decode every event body into maps);
 * this one stays for functions built around the runtime's event types. Each invocation ingests the batch and reports, as the one batch item failure, the first
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
 * (namespace {@value io.appendsfeed.model.metrics.EmfMetrics#NAMESPACE}, figures in {@link io.appendsfeed.indexer.IndexerMetrics}),
 * which CloudWatch Logs turns into metrics with no call from the function and no permission.
 */
public final class IndexerHandler implements RequestHandler<DynamodbEvent, StreamsEventResponse> {

    /** The MDC key of the request id: the name Lambda's own JSON log lines give it. */
    public static final String REQUEST_ID = "AWSRequestId";

    private final LambdaIngest ingest;

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
        this.ingest = LambdaIngest.of(settings);
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
     *                  Tips behind (no longer used: every write moves the epoch Tips); 0 when unknown
     */
    public IndexerHandler(Indexer indexer, String storeTable, int batchSize) {
        this.ingest = new LambdaIngest(indexer, storeTable, batchSize);
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
        String failure = ingest.ingest(converted, delivered);
        return new StreamsEventResponse(failure == null ? List.of() : List.of(new StreamsEventResponse.BatchItemFailure(failure)));
    }

    /** The first record that names its stream's ARN, and the last one: see {@link LambdaIngest#checkSource}. */
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
        ingest.checkSource(first.getEventID(), first.getEventSourceARN());
        DynamodbEvent.DynamodbStreamRecord last = records instanceof java.util.Deque<?> d
                ? (DynamodbEvent.DynamodbStreamRecord) d.peekLast() : records.get(records.size() - 1);
        if (last != null && last.getEventSourceARN() != null && !last.getEventSourceARN().equals(first.getEventSourceARN())) {
            ingest.checkSource(last.getEventID(), last.getEventSourceARN());
        }
    }
}
