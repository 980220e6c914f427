package io.appendsfeed.indexer;

import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.PartitionId;

/**
 * What one batch did to one partition.
 *
 * @param partition the partition
 * @param epoch its active epoch afterwards
 * @param spans spans handed in
 * @param settled spans settled, from the front (written, dropped as duplicates or trimmed); less
 *                than {@code spans} only when {@code error} is set
 * @param acceptedEvents stream events written to the feed
 * @param duplicateEvents stream events dropped as already in the feed
 * @param healedEvents events taken from the Tip to fill a gap
 * @param epochsClosed epochs this batch closed
 * @param writes conditional writes that succeeded
 * @param conflicts conditional writes that lost to another writer (and were retried)
 * @param error why the spans from {@code settled} on were not written, or null
 */
public record PartitionOutcome(PartitionId partition, EpochId epoch, int spans, int settled, long acceptedEvents,
                               long duplicateEvents, long healedEvents, int epochsClosed, int writes, int conflicts,
                               RuntimeException error) {

    public boolean ok() {
        return error == null;
    }
}
