package io.appendsfeed.indexer.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.metrics.EmfMetrics;
import java.util.List;
import java.util.Objects;
import org.slf4j.MDC;

/**
 * The Lambda function: subscribe it to the store table's stream with {@code ReportBatchItemFailures}
 * on. Each invocation ingests the batch and reports, as the one batch item failure, the first
 * record not durably in the feed, so that Lambda retries from there (and bisects, or sends it to the
 * on-failure destination, as the event source mapping says). Settings: {@link LambdaSettings}.
 * While a batch is handled, the MDC holds {@value #REQUEST_ID} (the invocation's request id), so
 * log lines and the batch's metrics line carry it.
 *
 * <p>Metrics are on: each batch writes one CloudWatch Embedded Metric Format line to stdout
 * (namespace {@value EmfMetrics#NAMESPACE}, figures in {@link io.appendsfeed.indexer.IndexerMetrics}),
 * which CloudWatch Logs turns into metrics with no call from the function and no permission.
 */
public final class IndexerHandler implements RequestHandler<DynamodbEvent, StreamsEventResponse> {

    /** The MDC key of the request id: the name Lambda's own JSON log lines give it. */
    public static final String REQUEST_ID = "AWSRequestId";

    private final Indexer indexer;

    /**
     * Used by Lambda: settings from the environment; the index is opened at initialisation.
     *
     * @throws IllegalArgumentException when a setting is missing or invalid
     * @throws io.appendsfeed.indexer.PartitionCountMismatchException when the partitions setting differs from the index
     */
    public IndexerHandler() {
        this(LambdaSettings.from(System::getenv));
    }

    /** With the settings given; metrics as EMF lines on stdout. */
    public IndexerHandler(LambdaSettings settings) {
        this(Indexer.start(DynamoClients.dynamoDb(settings.dynamo()),
                settings.config().toBuilder().metrics(new EmfMetrics()).build()));
    }

    public IndexerHandler(Indexer indexer) {
        this.indexer = Objects.requireNonNull(indexer, "indexer");
    }

    @Override
    public StreamsEventResponse handleRequest(DynamodbEvent event, Context context) {
        BatchOutcome outcome;
        if (context == null || context.getAwsRequestId() == null) {
            outcome = indexer.ingest(LambdaRecords.of(event));
        } else {
            try (MDC.MDCCloseable ignored = MDC.putCloseable(REQUEST_ID, context.getAwsRequestId())) {
                outcome = indexer.ingest(LambdaRecords.of(event));
            }
        }
        if (outcome.complete()) {
            return new StreamsEventResponse(List.of());
        }
        return new StreamsEventResponse(List.of(new StreamsEventResponse.BatchItemFailure(outcome.firstNotIngested())));
    }
}
