package io.appendsfeed.model.store.internal;

import io.appendsfeed.model.store.Capacity;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** What one conditional write of a Tip came to. */
public sealed interface TipWriteOutcome {

    Capacity capacity();

    /** The write landed; {@code state} is the Tip it left. */
    record Written(TipState state, Capacity capacity) implements TipWriteOutcome {}

    /**
     * The Tip was not the one the write was decided for. {@code tipKnown}: the failed condition
     * returned the current Tip ({@code tip}, null when there is none); false when DynamoDB refused
     * because of a concurrent transaction and did not say what is there.
     */
    record Refused(boolean tipKnown, Map<String, AttributeValue> tip, Capacity capacity) implements TipWriteOutcome {}
}
