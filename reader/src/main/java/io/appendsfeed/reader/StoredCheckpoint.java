package io.appendsfeed.reader;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import java.time.Instant;
import java.util.Objects;

/**
 * A consumer group's committed position in one partition.
 *
 * @param committedAt when it was last written (commit or override)
 * @param committedBy the reader instance (or {@code override}) that wrote it
 */
public record StoredCheckpoint(String group, PartitionId partition, Checkpoint checkpoint, Instant committedAt,
                               String committedBy) {
    public StoredCheckpoint {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(checkpoint, "checkpoint");
        Objects.requireNonNull(committedAt, "committedAt");
        Objects.requireNonNull(committedBy, "committedBy");
    }
}
