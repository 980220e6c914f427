package io.appendsfeed.indexer.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.model.DynamoClients;
import java.util.List;
import java.util.Objects;

/**
 * The Lambda function: subscribe it to the store table's stream with {@code ReportBatchItemFailures}
 * on. Each invocation ingests the batch and reports, as the one batch item failure, the first
 * record not durably in the feed, so that Lambda retries from there (and bisects, or sends it to the
 * on-failure destination, as the event source mapping says). Settings: {@link LambdaSettings}.
 */
public final class IndexerHandler implements RequestHandler<DynamodbEvent, StreamsEventResponse> {

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

    public IndexerHandler(LambdaSettings settings) {
        this(Indexer.start(DynamoClients.dynamoDb(settings.dynamo()), settings.config()));
    }

    public IndexerHandler(Indexer indexer) {
        this.indexer = Objects.requireNonNull(indexer, "indexer");
    }

    @Override
    public StreamsEventResponse handleRequest(DynamodbEvent event, Context context) {
        BatchOutcome outcome = indexer.ingest(LambdaRecords.of(event));
        if (outcome.complete()) {
            return new StreamsEventResponse(List.of());
        }
        return new StreamsEventResponse(List.of(new StreamsEventResponse.BatchItemFailure(outcome.firstNotIngested())));
    }
}
