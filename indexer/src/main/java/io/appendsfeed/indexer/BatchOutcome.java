package io.appendsfeed.indexer;

import java.util.List;
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
 */
public record BatchOutcome(int records, int skipped, List<PartitionOutcome> partitions, RejectedRecord rejected,
                           String firstNotIngested) {

    public BatchOutcome {
        partitions = List.copyOf(partitions);
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
}
