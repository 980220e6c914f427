package io.appendsfeed.model.feed;

/** The number of an epoch within a partition: {@code $AppendsEpoch-<partition>_<epoch>}. */
public record EpochId(int value) implements Comparable<EpochId> {

    public static final EpochId ZERO = new EpochId(0);

    public EpochId {
        if (value < 0) {
            throw new IllegalArgumentException("epoch id must be >= 0, was " + value);
        }
    }

    public static EpochId of(int value) {
        return new EpochId(value);
    }

    public EpochId next() {
        return new EpochId(Math.addExact(value, 1));
    }

    @Override
    public int compareTo(EpochId o) {
        return Integer.compare(value, o.value);
    }

    @Override
    public String toString() {
        return Integer.toString(value);
    }
}
