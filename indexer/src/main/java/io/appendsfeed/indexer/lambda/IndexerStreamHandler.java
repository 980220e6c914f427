package io.appendsfeed.indexer.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.SameTableException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.slf4j.MDC;

/**
 * The Lambda function the template deploys: subscribe it to the store table's stream with
 * {@code ReportBatchItemFailures} on. It reads the event's JSON itself ({@code RequestStreamHandler}),
 * taking of each record only what the indexer needs, and answers with the batch item failures; it
 * does what {@link IndexerHandler} does with the runtime's {@code DynamodbEvent}, for a fraction of the
 * cost per record. The runtime would otherwise decode every event body and unfold of every Tip image
 * into maps before the handler ran: at 1,000 records of equinox-js Tips, about five times the
 * handler's own work (samples/BENCHMARKS.md, "Indexer profile", sixth round).
 *
 * <p>Each invocation ingests the batch and reports, as the one batch item failure, the first record
 * not durably in the feed, so that Lambda retries from there (and bisects, or sends it to the
 * on-failure destination, as the event source mapping says). A record without a sequence number is
 * reported with an empty identifier after the records before it are in (see {@link IndexerHandler}).
 * Input that is not a DynamoDB stream event fails the invocation with an
 * {@link IllegalArgumentException} saying what is wrong, before anything is written.
 *
 * <p>Settings: {@link LambdaSettings}. Logging and metrics as {@link IndexerHandler}'s: the MDC holds
 * {@value IndexerHandler#REQUEST_ID} while a batch is handled, and each batch writes one CloudWatch
 * Embedded Metric Format line to stdout.
 */
public final class IndexerStreamHandler implements RequestStreamHandler {

    private static final byte[] NO_FAILURE = "{\"batchItemFailures\":[]}".getBytes(StandardCharsets.UTF_8);

    private final LambdaIngest ingest;

    /**
     * Used by Lambda: settings from the environment; the index is opened at initialisation.
     *
     * @throws SameTableException when the store table is the index table
     * @throws IllegalArgumentException when a setting is missing or invalid
     * @throws io.appendsfeed.indexer.PartitionCountMismatchException when the partitions setting differs from the index
     */
    public IndexerStreamHandler() {
        this(LambdaSettings.from(System::getenv));
    }

    /**
     * With the settings given; metrics as EMF lines on stdout.
     *
     * @throws IllegalArgumentException when the settings name no store table
     */
    public IndexerStreamHandler(LambdaSettings settings) {
        this.ingest = LambdaIngest.of(settings);
    }

    /**
     * @param storeTable the store table whose stream the function is mapped to: records of any other
     *                   table are refused; null to accept any table but the index
     * @param batchSize the event source mapping's {@code BatchSize} ({@link LambdaSettings#BATCH_SIZE}): a batch
     *                  that large tells the indexer more records are waiting, so that it may leave the epochs'
     *                  Tips behind (no longer used: every write moves the epoch Tips); 0 when unknown
     * @throws SameTableException when the store table is the index table
     */
    public IndexerStreamHandler(Indexer indexer, String storeTable, int batchSize) {
        this.ingest = new LambdaIngest(indexer, storeTable, batchSize);
    }

    /**
     * Ingests the batch the event holds and writes the response, {@code {"batchItemFailures": [...]}}.
     *
     * @throws IllegalArgumentException when the input is not a DynamoDB stream event
     * @throws SameTableException when the batch comes from the index table's own stream
     * @throws IllegalStateException when it comes from another table than the configured store table;
     *         nothing was written in any of these cases
     */
    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        if (context == null || context.getAwsRequestId() == null) {
            handle(input, output);
            return;
        }
        try (MDC.MDCCloseable ignored = MDC.putCloseable(IndexerHandler.REQUEST_ID, context.getAwsRequestId())) {
            handle(input, output);
        }
    }

    private void handle(InputStream input, OutputStream output) throws IOException {
        LambdaEventReader.Event event = LambdaEventReader.read(input);
        if (event.first() != null) {
            ingest.checkSource(event.first().eventId(), event.first().arn());
            if (event.last() != null && !event.last().arn().equals(event.first().arn())) {
                ingest.checkSource(event.last().eventId(), event.last().arn());
            }
        }
        String failure = ingest.ingest(event.converted(), event.delivered());
        output.write(failure == null ? NO_FAILURE : failureJson(failure));
        output.flush();
    }

    /** {@code {"batchItemFailures":[{"itemIdentifier":"<sequence number>"}]}}, the identifier escaped as JSON. */
    static byte[] failureJson(String identifier) {
        return ("{\"batchItemFailures\":[{\"itemIdentifier\":\""
                + new String(com.fasterxml.jackson.core.io.JsonStringEncoder.getInstance().quoteAsString(identifier))
                + "\"}]}").getBytes(StandardCharsets.UTF_8);
    }
}
