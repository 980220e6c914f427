package io.appendsfeed.indexer.notifier;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import io.appendsfeed.indexer.lambda.LambdaRecords;
import java.util.Objects;

/**
 * The notifier Lambda: subscribe it to the index table's own stream (NEW_IMAGE). Each invocation
 * publishes one notification per partition whose epoch Tip the batch wrote; it reads no table. A
 * failed publish fails the invocation, so that Lambda delivers the batch again. Settings:
 * {@link NotifierSettings}.
 */
public final class NotifierHandler implements RequestHandler<DynamodbEvent, Void> {

    private final Notifier notifier;

    /**
     * Used by Lambda: settings from the environment.
     *
     * @throws IllegalArgumentException when a setting is missing or invalid
     */
    public NotifierHandler() {
        this(NotifierSettings.from(System::getenv));
    }

    public NotifierHandler(NotifierSettings settings) {
        this(new Notifier(new SnsPublisher(SnsPublisher.client(settings.sns()), settings.topicArn())));
    }

    public NotifierHandler(Notifier notifier) {
        this.notifier = Objects.requireNonNull(notifier, "notifier");
    }

    /**
     * Returns nothing: Lambda ignores what a stream-mapped function returns (and would have to serialize it).
     *
     * @throws RuntimeException as {@link Notifier#notify}: the batch is delivered again
     */
    @Override
    public Void handleRequest(DynamodbEvent event, Context context) {
        handle(event);
        return null;
    }

    /** What {@link #handleRequest} does, with the outcome, for local drivers of the function. */
    public NotifierOutcome handle(DynamodbEvent event) {
        return notifier.notify(LambdaRecords.of(event));
    }
}
