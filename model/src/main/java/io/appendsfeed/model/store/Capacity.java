package io.appendsfeed.model.store;

/** Capacity units a call consumed, as DynamoDB reported them ({@code ReturnConsumedCapacity=TOTAL}). */
public record Capacity(double readUnits, double writeUnits) {

    public static final Capacity NONE = new Capacity(0, 0);

    public Capacity plus(Capacity o) {
        return new Capacity(readUnits + o.readUnits, writeUnits + o.writeUnits);
    }
}
