package io.appendsfeed.model.store;

/**
 * What to read from a stream.
 *
 * @param fromIndex forwards: the first index wanted; backwards: the index to stop before ({@code Long.MAX_VALUE}: the newest)
 * @param bodies false to read event types only
 * @param wholeItems forwards: past {@code maxEvents}, the rest of what the last page fetched comes too (it was paid for),
 *                   so that a walker's next read starts where an item starts
 */
public record Read(Direction direction, long fromIndex, long maxEvents, boolean consistent, boolean bodies, boolean wholeItems) {

    public enum Direction { FORWARD, BACKWARD }

    public Read {
        if (fromIndex < 0) {
            throw new IllegalArgumentException("fromIndex must be >= 0, was " + fromIndex);
        }
        if (maxEvents < 1) {
            throw new IllegalArgumentException("maxEvents must be >= 1, was " + maxEvents);
        }
    }

    /** Eventually consistent, with bodies. */
    public static Read forward(long fromIndex) {
        return new Read(Direction.FORWARD, fromIndex, Long.MAX_VALUE, false, true, false);
    }

    /** Newest first. */
    public static Read backward() {
        return new Read(Direction.BACKWARD, Long.MAX_VALUE, Long.MAX_VALUE, false, true, false);
    }

    public static Read backward(long beforeIndex) {
        return new Read(Direction.BACKWARD, beforeIndex, Long.MAX_VALUE, false, true, false);
    }

    public Read limit(long maxEvents) {
        return new Read(direction, fromIndex, maxEvents, consistent, bodies, wholeItems);
    }

    public Read strongly() {
        return new Read(direction, fromIndex, maxEvents, true, bodies, wholeItems);
    }

    public Read typesOnly() {
        return new Read(direction, fromIndex, maxEvents, consistent, false, wholeItems);
    }

    public Read toItemEnd() {
        return new Read(direction, fromIndex, maxEvents, consistent, bodies, true);
    }
}
