package io.appendsfeed.indexer;

import io.appendsfeed.model.store.Capacity;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one batch did. Everything before {@link #firstNotIngested()} is durably in the feed (or
 * carried nothing to index); from it on, the source must deliver the records again (Lambda: report
 * it as the batch item failure; a poller: resume there).
 *
 * @param records records handed in (or spans, for {@link Indexer#ingestSpans})
 * @param skipped records with nothing to index (REMOVE, calves, {@code a = 0}, {@code $} streams)
 * @param partitions one outcome per partition the batch touched
 * @param rejected the first record that cannot be read, or null; the batch stopped before it
 * @param firstNotIngested position (sequence number) of the first record not durably ingested:
 *                         the rejected record or the first span of a failed partition, whichever
 *                         came first; null when the whole batch is in
 * @param capacity what the batch's calls to the index table consumed (reads of epochs and the index,
 *                 the conditional writes); {@link Capacity#NONE} when neither metrics nor a
 *                 {@link IndexerConfig#meter()} ask DynamoDB for it
 * @param elapsed how long {@link Indexer#ingest} took, from the first record parsed to the outcome
 * @param newestRecordAt the latest {@code ApproximateCreationDateTime} of the records handed in (the
 *                       newest change DynamoDB streamed), or null when none carries one
 */
public record BatchOutcome(int records, int skipped, List<PartitionOutcome> partitions, RejectedRecord rejected,
                           String firstNotIngested, Capacity capacity, Duration elapsed, Instant newestRecordAt) {

    public BatchOutcome {
        partitions = List.copyOf(partitions);
        Objects.requireNonNull(capacity, "capacity");
        Objects.requireNonNull(elapsed, "elapsed");
    }

    /** Without the figures measured around the batch (capacity, time, record age). */
    public BatchOutcome(int records, int skipped, List<PartitionOutcome> partitions, RejectedRecord rejected,
                        String firstNotIngested) {
        this(records, skipped, partitions, rejected, firstNotIngested, Capacity.NONE, Duration.ZERO, null);
    }

    /**
     * How old the newest record was at {@code now}: what Lambda reports as {@code IteratorAge} for a
     * stream, i.e. how far the indexer is behind the table's writes. Empty when no record carries a
     * creation time (spans from a backfill).
     */
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

    public Optional<String> firstNotIngestedPosition() {
        return Optional.ofNullable(firstNotIngested);
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
