package io.appendsfeed.indexer.notifier;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import io.appendsfeed.indexer.lambda.LambdaEvent;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;

/**
 * The notifier Lambda: subscribe it to the index table's own stream (NEW_IMAGE). Each invocation
 * publishes one notification per partition whose epoch Tip the batch wrote; it reads no table. A
 * failed publish fails the invocation, so that Lambda delivers the batch again. The event is read by
 * the indexer's own reader ({@link LambdaEvent}), strict on what Lambda never writes; records from the
 * first without a sequence number on are left out (a later write of the same Tips notifies anyway).
 * Settings: {@link NotifierSettings}.
 */
public final class NotifierHandler implements RequestStreamHandler {

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
     * Writes nothing: Lambda ignores what a stream-mapped function returns.
     *
     * @throws RuntimeException as {@link Notifier#notify}, or {@link LambdaEvent#read}: the batch is delivered again
     */
    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        notifier.notify(LambdaEvent.read(input).records());
    }

    /** What {@link #handleRequest} does with the event's JSON, with the outcome, for local drivers of the function. */
    public Notifier.Outcome handle(byte[] event) {
        return notifier.notify(LambdaEvent.read(event).records());
    }
}
