package io.appendsfeed.reader;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import java.util.List;
import java.util.Optional;

/**
 * Where consumer groups keep their position per partition. Implementations must be thread-safe.
 * Commits never move a checkpoint backwards; only {@link #override} does, and it is recorded.
 * Implementations: {@link DynamoCheckpointStore} (the index table), {@link InMemoryCheckpointStore}.
 */
public interface CheckpointStore {

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
     * Sets the checkpoint to {@code to}, backwards too, and records the change with its reason. It
     * revokes the partition's lease: a reader holding it notices at its next commit or renewal,
     * stops, and (re)starts from {@code to}. Readers without leases must be stopped first, or
     * their next commit moves the checkpoint forward again.
     *
     * @throws IllegalArgumentException when the reason is blank
     * @throws RuntimeException when the store cannot be written; the checkpoint is then unchanged
     */
    StoredCheckpoint override(String group, PartitionId partition, Checkpoint to, String reason);

    /**
     * Sets the checkpoint to {@code to}, backwards too, for the reader holding {@code lease}, and
     * records the change like {@link #override} (made by the lease's owner): in one conditional
     * write, and only while {@code lease} is the current one. Unlike {@link #override} it keeps the
     * lease: a reader applying its own configured start position does not revoke itself.
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
}
