package io.appendsfeed.reader;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.LeaseStore.Lease;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where consumer groups keep their position per partition, and the leases that fence its commits (so one
 * store holds both). Implementations must be thread-safe. Commits never move a checkpoint backwards; only
 * {@link #override} does, and it is recorded. Implementations: {@link DynamoCheckpointStore} (the index
 * table), {@link InMemoryCheckpointStore}.
 */
public interface CheckpointStore extends LeaseStore {

    /** Who {@link #override} records as having moved a checkpoint. */
    String OVERRIDE_BY = "override";

    /**
     * The committed checkpoint, or empty when the group never committed in this partition.
     *
     * @throws RuntimeException when the store cannot be read (e.g. an SDK exception); nothing changed
     */
    Optional<StoredCheckpoint> read(String group, PartitionId partition);

    /**
     * Moves the checkpoint forwards to {@code to}.
     *
     * @param by the committing instance, recorded with the checkpoint
     * @param fence the lease the caller holds, or null when the caller reads without leases; with
     *              one, the commit is refused unless that lease is still the current one
     * @return {@link CommitResult.Committed}; {@link CommitResult.Behind} when the stored checkpoint
     *         is ahead of {@code to}; {@link CommitResult.LeaseLost} when {@code fence} is not current
     * @throws RuntimeException when the store cannot be written; the checkpoint is then unchanged
     */
    CommitResult commit(String group, PartitionId partition, Checkpoint to, String by, Lease fence);

    /**
     * Sets the checkpoint to {@code to}, backwards too, records why, and revokes the partition's lease:
     * its reader stops and restarts from {@code to}. Readers without leases must be stopped first, or
     * their next commit moves the checkpoint forward again.
     *
     * @throws IllegalArgumentException when the reason is blank
     * @throws RuntimeException when the store cannot be written; the checkpoint is then unchanged
     */
    StoredCheckpoint override(String group, PartitionId partition, Checkpoint to, String reason);

    /**
     * Like {@link #override}, for the reader holding {@code lease} (applying its configured start), in one
     * write conditioned on {@code lease} being current; it keeps the lease.
     *
     * @return {@link CommitResult.Committed}, or {@link CommitResult.LeaseLost} when {@code lease} is
     *         not current: then nothing was written
     * @throws IllegalArgumentException when the reason is blank
     * @throws RuntimeException when the store cannot be written; the checkpoint is then unchanged
     */
    CommitResult overrideHeld(String group, PartitionId partition, Checkpoint to, String reason, Lease lease);

    /** The overrides of a checkpoint, oldest first. */
    List<CheckpointOverride> overrides(String group, PartitionId partition);

    /** Every checkpoint the group holds, by partition. */
    List<StoredCheckpoint> list(String group);

    /** Every group that has a checkpoint or a lease, sorted. */
    List<String> groups();

    /**
     * A consumer group's committed position in one partition.
     *
     * @param committedAt when it was last written (commit or override)
     * @param committedBy the reader instance (or {@code override}) that wrote it
     */
    record StoredCheckpoint(String group, PartitionId partition, Checkpoint checkpoint, Instant committedAt,
                            String committedBy) {
        public StoredCheckpoint {
            Objects.requireNonNull(group, "group");
            Objects.requireNonNull(partition, "partition");
            Objects.requireNonNull(checkpoint, "checkpoint");
            Objects.requireNonNull(committedAt, "committedAt");
            Objects.requireNonNull(committedBy, "committedBy");
        }
    }

    /** The outcome of {@link CheckpointStore#commit}: refusals are expected outcomes, not exceptions. */
    sealed interface CommitResult {

        /** The checkpoint is now {@code stored}. */
        record Committed(StoredCheckpoint stored) implements CommitResult {}

        /** The stored checkpoint is ahead of the one offered; nothing was written (never backwards by accident). */
        record Behind(StoredCheckpoint stored) implements CommitResult {}

        /** The lease given as fence is no longer held (taken over or released); nothing was written. */
        record LeaseLost(String currentOwner) implements CommitResult {}
    }

    /**
     * An explicit move of a checkpoint, kept as history.
     *
     * @param from the checkpoint before, null when none was stored
     */
    record CheckpointOverride(Instant at, Checkpoint from, Checkpoint to, String reason, String by) {}

    /** What a conditional override ({@link DynamoCheckpointStore#overrideIf}) did. */
    sealed interface OverrideResult {

        /** The checkpoint was moved and the move recorded. */
        record Applied(StoredCheckpoint checkpoint) implements OverrideResult {
            public Applied {
                Objects.requireNonNull(checkpoint, "checkpoint");
            }
        }

        /**
         * Nothing was written: someone moved the checkpoint since the caller looked.
         *
         * @param current what is stored now; empty when the group has no checkpoint in the partition
         */
        record Moved(Optional<StoredCheckpoint> current) implements OverrideResult {
            public Moved {
                Objects.requireNonNull(current, "current");
            }
        }
    }
}
