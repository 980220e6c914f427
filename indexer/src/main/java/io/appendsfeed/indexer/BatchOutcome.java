package io.appendsfeed.indexer;

import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.CapacityMeter.Capacity;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * What one batch did. Everything before {@link #firstNotIngested()} is durably in the feed (or carried
 * nothing to index); from it on, the source must deliver the records again.
 *
 * @param records records handed in (or spans, for {@link Indexer#ingestSpans})
 * @param skipped records with nothing to index (REMOVE, calves, {@code a = 0}, {@code $} streams)
 * @param rejected the first record that cannot be read, or null; the batch stopped before it
 * @param firstNotIngested sequence number of the first record not durably ingested (the rejected record or
 *                         the first span of a failed partition, whichever came first); null when all is in
 * @param capacity what the batch's calls to the index table consumed; {@link Capacity#NONE} when neither
 *                 metrics nor a {@link IndexerConfig#meter()} ask for it
 * @param newestRecordAt the latest {@code ApproximateCreationDateTime} of the records, or null when none has one
 */
public record BatchOutcome(int records, int skipped, List<PartitionOutcome> partitions, RejectedRecord rejected,
                           String firstNotIngested, Capacity capacity, Duration elapsed, Instant newestRecordAt) {

    /**
     * What one batch did to one partition.
     *
     * @param epoch its active epoch afterwards
     * @param settled spans settled from the front (written, or dropped as duplicates); less than {@code spans} only on an error
     * @param healedEvents events taken from the Tip to fill a gap
     * @param conflicts conditional writes lost to another writer (and retried)
     * @param error why the spans from {@code settled} on were not written, or null
     */
    public record PartitionOutcome(PartitionId partition, EpochId epoch, int spans, int settled, long acceptedEvents,
                                   long duplicateEvents, long healedEvents, int epochsClosed, int writes, int conflicts,
                                   Capacity capacity, RuntimeException error) {
        public boolean ok() {
            return error == null;
        }
    }

    /**
     * A record the indexer cannot read (not of the store format, or without a new image): the batch stops before it.
     *
     * @param key the item key, e.g. {@code p=Account-42, i=2147483647}
     */
    public record RejectedRecord(String sequenceNumber, String key, String reason) {
        public RejectedRecord {
            Objects.requireNonNull(sequenceNumber, "sequenceNumber");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public String toString() {
            return "record " + sequenceNumber + " (" + key + ") rejected: " + reason;
        }
    }

    public BatchOutcome {
        partitions = List.copyOf(partitions);
        Objects.requireNonNull(capacity, "capacity");
        Objects.requireNonNull(elapsed, "elapsed");
    }

    /** How old the newest record was at {@code now} (Lambda's {@code IteratorAge}); empty when none has a time. */
    public Optional<Duration> newestRecordAge(Instant now) {
        if (newestRecordAt == null) {
            return Optional.empty();
        }
        Duration age = Duration.between(newestRecordAt, now);
        return Optional.of(age.isNegative() ? Duration.ZERO : age);
    }

    public boolean complete() {
        return firstNotIngested == null;
    }

    /** How many of the records (or spans) handed in are durably in, from the front; {@code position} gives their sequence number. */
    public <T> int ingested(List<T> handed, Function<T, String> position) {
        if (complete()) {
            return handed.size();
        }
        for (int k = 0; k < handed.size(); k++) {
            if (position.apply(handed.get(k)).equals(firstNotIngested)) {
                return k;
            }
        }
        throw new IllegalStateException("the indexer reported " + firstNotIngested + " as not ingested, which was not handed in");
    }

    /** The rejected record when it is the first not ingested (the batch stopped at it), else null. */
    public RejectedRecord stoppedAtRejected() {
        return rejected != null && rejected.sequenceNumber().equals(firstNotIngested) ? rejected : null;
    }

    /** The failures of partitions, in partition order. */
    public List<RuntimeException> errors() {
        return partitions.stream().filter(p -> !p.ok()).map(PartitionOutcome::error).toList();
    }

    public int spans() { return partitions.stream().mapToInt(PartitionOutcome::spans).sum(); }
    public long acceptedEvents() { return partitions.stream().mapToLong(PartitionOutcome::acceptedEvents).sum(); }
    public long duplicateEvents() { return partitions.stream().mapToLong(PartitionOutcome::duplicateEvents).sum(); }
    public int epochsClosed() { return partitions.stream().mapToInt(PartitionOutcome::epochsClosed).sum(); }
    public int writes() { return partitions.stream().mapToInt(PartitionOutcome::writes).sum(); }
    public int conflicts() { return partitions.stream().mapToInt(PartitionOutcome::conflicts).sum(); }
    public long healedEvents() { return partitions.stream().mapToLong(PartitionOutcome::healedEvents).sum(); }
}
