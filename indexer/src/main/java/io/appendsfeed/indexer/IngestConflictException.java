package io.appendsfeed.indexer;

import io.appendsfeed.model.feed.PartitionId;

/**
 * Every retry of a write to the partition's epoch lost to another writer. Nothing is lost: the
 * spans not written are reported as not ingested, and a redelivery writes them. Many indexers
 * racing on one partition cause this; run fewer, or raise {@link IndexerConfig#maxConflictRetries()}.
 */
public class IngestConflictException extends RuntimeException {

    private final PartitionId partition;
    private final int attempts;

    public IngestConflictException(PartitionId partition, int attempts) {
        super("partition " + partition + ": " + attempts + " conditional writes in a row lost to other writers;"
                + " giving up on this batch (it will be redelivered). Run fewer indexers per partition or raise maxConflictRetries");
        this.partition = partition;
        this.attempts = attempts;
    }

    public PartitionId partition() { return partition; }
    public int attempts() { return attempts; }
}
