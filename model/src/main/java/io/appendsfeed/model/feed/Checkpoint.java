package io.appendsfeed.model.feed;

/** A position in a partition: {@code epoch × 1,000,000 + offset}, offset being the index of the next epoch event to read. */
public record Checkpoint(long value) implements Comparable<Checkpoint> {

    /** Defines the storage format (every implementation's checkpoints decode with it): it never changes. */
    public static final long EPOCH_SIZE = 1_000_000L;

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

    /** @throws IllegalArgumentException when offset is outside {@code [0, EPOCH_SIZE)} */
    public static Checkpoint of(EpochId epoch, long offset) {
        if (offset < 0 || offset >= EPOCH_SIZE) {
            throw new IllegalArgumentException("offset must be in [0, " + EPOCH_SIZE + "), was " + offset);
        }
        return new Checkpoint(epoch.value() * EPOCH_SIZE + offset);
    }

    public static Checkpoint of(int epoch, long offset) {
        return of(EpochId.of(epoch), offset);
    }

    /** The raw int64 ({@code 1000042}) or {@code EPOCH/OFFSET} ({@code 1/42}). @throws IllegalArgumentException naming both forms */
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

    /** {@code n} events further on in the same epoch. */
    public Checkpoint plus(long n) {
        return of(epoch(), offset() + n);
    }

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
