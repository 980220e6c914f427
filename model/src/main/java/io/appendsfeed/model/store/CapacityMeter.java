package io.appendsfeed.model.store;

/**
 * Told the capacity of every DynamoDB call a client makes, so that cost per event can be measured.
 * Implementations must be thread-safe.
 */
@FunctionalInterface
public interface CapacityMeter {

    /** A meter that discards; with it the client does not ask DynamoDB for consumed capacity. */
    CapacityMeter NONE = (operation, table, capacity) -> { };

    /**
     * @param operation the DynamoDB operation, e.g. {@code UpdateItem}, {@code Query}
     * @param table the table name
     * @param capacity what it consumed
     */
    void consumed(String operation, String table, Capacity capacity);

    /**
     * Told of a write DynamoDB refused because its condition failed (another writer was there first):
     * DynamoDB reports no capacity for it. Nothing by default.
     *
     * @param operation the DynamoDB operation, e.g. {@code PutItem}, {@code TransactWriteItems}
     * @param table the table name
     */
    default void refused(String operation, String table) {
    }
}
