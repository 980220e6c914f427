package io.appendsfeed.indexer.notifier;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord;
import io.appendsfeed.indexer.ChangeRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

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
        return notifier.notify(records(event));
    }

    /**
     * What {@link Notifier} reads of each record: its event name, sequence number, view type, keys and the
     * new image's {@code n} and {@code c} (an epoch Tip's). Records without a sequence number (Lambda sends
     * none) end the batch: the notifier cannot name them, and a later write of the same Tips notifies anyway.
     */
    static List<ChangeRecord> records(DynamodbEvent event) {
        List<ChangeRecord> out = new ArrayList<>();
        for (DynamodbEvent.DynamodbStreamRecord r : event.getRecords() == null ? List.<DynamodbEvent.DynamodbStreamRecord>of() : event.getRecords()) {
            StreamRecord d = r.getDynamodb();
            if (d == null || d.getSequenceNumber() == null || d.getSequenceNumber().isBlank()) {
                break;
            }
            Map<String, AttributeValue> image = null;
            if (d.getNewImage() != null) {
                image = new HashMap<>();
                for (String name : List.of("n", "c")) {
                    var v = d.getNewImage().get(name);
                    if (v != null) {
                        image.put(name, value(v));
                    }
                }
            }
            Map<String, AttributeValue> keys = new HashMap<>();
            if (d.getKeys() != null) {
                d.getKeys().forEach((name, v) -> keys.put(name, value(v)));
            }
            out.add(new ChangeRecord(d.getSequenceNumber(), r.getEventName(), d.getStreamViewType(), keys, image,
                    d.getApproximateCreationDateTime() == null ? null : d.getApproximateCreationDateTime().toInstant()));
        }
        return out;
    }

    /** The strings, numbers and lists of strings an epoch Tip's keys, {@code n} and {@code c} hold; NULL for anything else. */
    private static AttributeValue value(com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue v) {
        if (v.getS() != null) return AttributeValue.fromS(v.getS());
        if (v.getN() != null) return AttributeValue.fromN(v.getN());
        if (v.getL() != null) return AttributeValue.fromL(v.getL().stream().map(NotifierHandler::value).toList());
        return AttributeValue.fromNul(true); // not of an epoch Tip: the notifier says what is wrong with it
    }
}
