package io.appendsfeed.model.store;

/** Told the capacity of every DynamoDB call a client makes, so that cost per event can be measured. Thread-safe. */
@FunctionalInterface
public interface CapacityMeter {

    /** A meter that discards; with it the client does not ask DynamoDB for consumed capacity. */
    CapacityMeter NONE = (operation, table, capacity) -> { };

    /** @param operation the DynamoDB operation, e.g. {@code UpdateItem}, {@code Query} */
    void consumed(String operation, String table, Capacity capacity);

    /** A write refused on its condition, for which DynamoDB reports no capacity. */
    default void refused(String operation, String table) {
    }

    /** As DynamoDB reported them. */
    record Capacity(double readUnits, double writeUnits) {

        public static final Capacity NONE = new Capacity(0, 0);

        public Capacity plus(Capacity o) {
            return new Capacity(readUnits + o.readUnits, writeUnits + o.writeUnits);
        }
    }
}
