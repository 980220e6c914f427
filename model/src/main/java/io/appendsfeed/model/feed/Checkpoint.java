package io.appendsfeed.model.feed;

/**
 * A position in one partition of the feed: {@code epoch × 1,000,000 + offset}, where offset is the
 * index of the next epoch event to read. A single int64, so that a reader's progress is one
 * number that sorts correctly.
 */
public record Checkpoint(long value) implements Comparable<Checkpoint> {

    /**
     * Events per epoch in the checkpoint encoding. This defines the storage format: stored
     * checkpoints of this and the other implementations of the design decode with it, so it can
     * never change. It is also why an epoch holds at most 999,999 events plus its {@code Closed}.
     */
    public static final long EPOCH_SIZE = 1_000_000L;

    /** The very start of a partition: epoch 0, offset 0. */
    public static final Checkpoint START = new Checkpoint(0);

    public Checkpoint {
        if (value < 0) {
            throw new IllegalArgumentException("checkpoint must be >= 0, was " + value);
        }
        if (value / EPOCH_SIZE > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("checkpoint " + value + " names epoch " + value / EPOCH_SIZE
                    + ", beyond the largest epoch id " + Integer.MAX_VALUE);
        }
    }

    /**
     * @throws IllegalArgumentException when offset is outside {@code [0, EPOCH_SIZE)}
     */
    public static Checkpoint of(EpochId epoch, long offset) {
        if (offset < 0 || offset >= EPOCH_SIZE) {
            throw new IllegalArgumentException("offset must be in [0, " + EPOCH_SIZE + "), was " + offset);
        }
        return new Checkpoint(epoch.value() * EPOCH_SIZE + offset);
    }

    public static Checkpoint of(int epoch, long offset) {
        return of(EpochId.of(epoch), offset);
    }

    /**
     * Parses the raw int64 ({@code 1000042}) or {@code EPOCH/OFFSET} ({@code 1/42}).
     *
     * @throws IllegalArgumentException naming the accepted forms when the text is neither
     */
    public static Checkpoint parse(String text) {
        String t = text == null ? "" : text.trim();
        try {
            int slash = t.indexOf('/');
            if (slash >= 0) {
                return of(Integer.parseInt(t.substring(0, slash).trim()), Long.parseLong(t.substring(slash + 1).trim()));
            }
            return new Checkpoint(Long.parseLong(t));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a checkpoint: give the raw int64 (e.g. 1000042)"
                    + " or EPOCH/OFFSET (e.g. 1/42)", e);
        }
    }

    public EpochId epoch() {
        return EpochId.of((int) (value / EPOCH_SIZE));
    }

    public long offset() {
        return value % EPOCH_SIZE;
    }

    /** The checkpoint {@code n} events further on in the same epoch. */
    public Checkpoint plus(long n) {
        return of(epoch(), offset() + n);
    }

    /** The start of the next epoch. */
    public Checkpoint nextEpoch() {
        return of(epoch().next(), 0);
    }

    /** {@code EPOCH/OFFSET}, e.g. {@code 1/42}. */
    public String display() {
        return epoch().value() + "/" + offset();
    }

    @Override
    public int compareTo(Checkpoint o) {
        return Long.compare(value, o.value);
    }

    @Override
    public String toString() {
        return display() + " (" + value + ")";
    }
}
