package io.appendsfeed.indexer.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.SameTableException;
import io.appendsfeed.indexer.settings.IndexerSettings;
import io.appendsfeed.model.DynamoClients;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The Lambda indexer the template deploys, mapped to the store table's stream with
 * {@code ReportBatchItemFailures}: reports the first record not durably in the feed as the batch item
 * failure, so that Lambda retries from there. The template's schedule invokes it every minute with an
 * EventBridge event, to move epoch Tips a full last batch left behind ({@link Indexer#moveTips()}). A record
 * without a sequence number is reported, once the records before it are in, with an empty identifier: Lambda
 * then bisects the batch until it is alone.
 * Input that is not a DynamoDB stream event fails the invocation before anything is written.
 */
public final class IndexerStreamHandler implements RequestStreamHandler {

    /** The MDC key of the request id, as Lambda's own JSON log lines name it. */
    public static final String REQUEST_ID = "AWSRequestId";

    private static final Logger log = LoggerFactory.getLogger(IndexerStreamHandler.class);
    private static final byte[] NO_FAILURE = "{\"batchItemFailures\":[]}".getBytes(StandardCharsets.UTF_8);

    private final Indexer indexer;
    private final String storeTable;
    private final int batchSize;

    /**
     * Used by Lambda: settings from the environment ({@link LambdaSettings}); the index is opened here.
     *
     * @throws IllegalArgumentException when a setting is missing or invalid (the store table is required)
     * @throws io.appendsfeed.indexer.Indexer.PartitionCountMismatchException when the partitions setting differs from the index
     */
    public IndexerStreamHandler() {
        this(LambdaSettings.from(System::getenv));
    }

    /** As {@link #IndexerStreamHandler()}, from these settings. */
    public IndexerStreamHandler(LambdaSettings settings) {
        this(Indexer.start(DynamoClients.dynamoDb(settings.dynamo()), settings.indexerConfig()), requireStoreTable(settings),
                settings.batchSize());
    }

    /** @param storeTable the store table whose stream the function is mapped to; null to accept any table but the index */
    public IndexerStreamHandler(Indexer indexer, String storeTable) {
        this(indexer, storeTable, 0);
    }

    /**
     * @param batchSize the mapping's batch size: a batch that large lets the epochs' Tips lag ({@link Indexer#ingest(List,
     *                  String, boolean)}); 0 moves them with every batch
     */
    public IndexerStreamHandler(Indexer indexer, String storeTable, int batchSize) {
        this.indexer = Objects.requireNonNull(indexer, "indexer");
        this.storeTable = storeTable;
        this.batchSize = batchSize;
        SameTableException.check(storeTable, indexer.config().indexTable());
    }

    /**
     * Ingests the event's batch and writes {@code {"batchItemFailures": [...]}}.
     *
     * @throws IllegalArgumentException when the input is not a DynamoDB stream event as Lambda writes it
     * @throws SameTableException when the batch comes from the index table's own stream
     * @throws IllegalStateException when it comes from another table than the store table; nothing was written
     */
    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        String requestId = context == null ? null : context.getAwsRequestId();
        try (MDC.MDCCloseable ignored = requestId == null ? null : MDC.putCloseable(REQUEST_ID, requestId)) {
            handle(LambdaEvent.read(input), output);
        }
    }

    private void handle(LambdaEvent event, OutputStream output) throws IOException {
        if (event.scheduled()) { // the template's schedule: Tips a full last batch left behind its calves
            indexer.moveTips();
            output.write(NO_FAILURE);
            output.flush();
            return;
        }
        // one mapping's records come from one stream: the first and the last are checked, not every record
        if (event.first() != null) {
            checkSource(event.first());
            if (event.last() != null && !event.last().arn().equals(event.first().arn())) {
                checkSource(event.last());
            }
        }
        BatchOutcome outcome = indexer.ingest(event.records(), null, batchSize > 0 && event.delivered() >= batchSize);
        String failure = outcome.firstNotIngested();
        if (failure == null && event.unidentified() != null) {
            log.error("{}: the records before it are in the feed; it is reported as the batch item failure (an empty identifier:"
                    + " Lambda retries the batch, bisecting, then sends its range to the on-failure destination)", event.unidentified());
            failure = "";
        }
        output.write(failure == null ? NO_FAILURE : failureJson(failure));
        output.flush();
    }

    private void checkSource(LambdaEvent.Source source) {
        SameTableException.check(source.arn(), indexer.config().indexTable());
        if (storeTable != null && !SameTableException.tableName(source.arn()).equals(SameTableException.tableName(storeTable))) {
            throw new IllegalStateException("record " + source.eventId() + " comes from the stream " + source.arn() + ", not from"
                    + " the store table '" + storeTable + "' (" + IndexerSettings.STORE_TABLE + "): map the function to that table's"
                    + " stream, or set " + IndexerSettings.STORE_TABLE + " to the table it is mapped to; nothing was written");
        }
    }

    /** {@code {"batchItemFailures":[{"itemIdentifier":"<sequence number>"}]}}. */
    static byte[] failureJson(String identifier) {
        return ("{\"batchItemFailures\":[{\"itemIdentifier\":\""
                + new String(com.fasterxml.jackson.core.io.JsonStringEncoder.getInstance().quoteAsString(identifier))
                + "\"}]}").getBytes(StandardCharsets.UTF_8);
    }

    private static String requireStoreTable(LambdaSettings settings) {
        if (settings.storeTable() == null) {
            throw new IllegalArgumentException(IndexerSettings.STORE_TABLE + " is not set: set it to the store table whose stream"
                    + " the function is mapped to (the template sets it from StoreStreamArn)");
        }
        return settings.storeTable();
    }
}
