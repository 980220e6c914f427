package io.appendsfeed.samples.demo;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One line of the {@code feed checkpoints} view: where a consumer group is in one partition.
 *
 * @param lagEvents feed events after the checkpoint
 * @param lagTime how far behind the tail the checkpoint is in time; null when unknown
 * @param lastCommitted when the checkpoint was last written; null when never
 */
public record CheckpointRow(String group, PartitionId partition, Checkpoint checkpoint, long lagEvents,
                            Duration lagTime, Instant lastCommitted) {

    public CheckpointRow {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(checkpoint, "checkpoint");
    }
}
