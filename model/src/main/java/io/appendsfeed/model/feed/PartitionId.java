package io.appendsfeed.model.feed;

/** A slice of the feed. A stream belongs to exactly one partition for life (see {@link Partitioner}). */
public record PartitionId(int value) implements Comparable<PartitionId> {

    public static final PartitionId ZERO = new PartitionId(0);

    public PartitionId {
        if (value < 0) {
            throw new IllegalArgumentException("partition id must be >= 0, was " + value);
        }
    }

    public static PartitionId of(int value) {
        return new PartitionId(value);
    }

    @Override
    public int compareTo(PartitionId o) {
        return Integer.compare(value, o.value);
    }

    @Override
    public String toString() {
        return Integer.toString(value);
    }
}
