package io.appendsfeed.model.store;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * Creates and verifies tables of the store format: hash key {@code p} (S), range key {@code i} (N),
 * on-demand billing; event-store tables have Streams on ({@code NEW_IMAGE} or {@code NEW_AND_OLD_IMAGES}).
 *
 * <p>API SKELETON: bodies are being implemented under the foundation issue.
 */
public final class StoreTables {

    private StoreTables() {}

    /** Creates the table (Streams on with {@code view} when non-null) unless it exists, then verifies it and waits until ACTIVE. */
    public static void ensure(DynamoDbClient dynamo, String table, StreamViewType view) {
        throw new UnsupportedOperationException("skeleton");
    }

    /**
     * Checks an existing table's shape.
     *
     * @param requireStreams true for an event-store table, which must have Streams on with new images
     * @throws WrongTableShapeException naming what is wrong and what to do
     */
    public static void verify(DynamoDbClient dynamo, String table, boolean requireStreams) {
        throw new UnsupportedOperationException("skeleton");
    }
}
