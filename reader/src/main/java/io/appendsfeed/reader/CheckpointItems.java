package io.appendsfeed.reader;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.internal.CheckpointItem;
import io.appendsfeed.reader.internal.CheckpointItem.Decision;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/**
 * What the two checkpoint stores share: every change is a {@link CheckpointItem} decision on the
 * partition's one item (checkpoint and lease together), which the store applies atomically.
 */
abstract sealed class CheckpointItems implements CheckpointStore permits DynamoCheckpointStore, InMemoryCheckpointStore {

    final Clock clock;

    CheckpointItems(Clock clock) {
        this.clock = clock;
    }

    /** The partition's item as stored now. */
    abstract CheckpointItem load(String group, PartitionId partition);

    /** Decides on the item as stored and writes the decision, only if the item is still as decided on; else decides again. */
    abstract <T> T transact(String group, PartitionId partition, Function<CheckpointItem, Decision<T>> decide);

    @Override
    public Optional<StoredCheckpoint> read(String group, PartitionId partition) {
        return load(group, partition).checkpoint();
    }

    @Override
    public CommitResult commit(String group, PartitionId partition, Checkpoint to, String by, Lease fence) {
        return transact(group, partition, item -> item.commit(to, by, fence, clock.instant()));
    }

    @Override
    public StoredCheckpoint override(String group, PartitionId partition, Checkpoint to, String reason) {
        return transact(group, partition, item -> item.override(to, reason, clock.instant()));
    }

    @Override
    public CommitResult overrideHeld(String group, PartitionId partition, Checkpoint to, String reason, Lease lease) {
        return transact(group, partition, item -> item.overrideHeld(to, reason, lease, clock.instant()));
    }

    /**
     * Like {@link #override}, but only when the stored checkpoint is still {@code expected} (so that no
     * move is overwritten unseen), and recorded as made by {@code by}.
     *
     * @param expected the checkpoint the caller saw; empty when it saw none stored
     * @return {@link OverrideResult.Applied}, or {@link OverrideResult.Moved} with what is stored
     *         now, when that is not {@code expected}: then nothing was written
     * @throws IllegalArgumentException when the reason or {@code by} is blank
     * @throws RuntimeException when the store cannot be written; the checkpoint is then unchanged
     */
    public OverrideResult overrideIf(String group, PartitionId partition, Optional<Checkpoint> expected, Checkpoint to, String reason,
                                     String by) {
        return transact(group, partition, item -> item.overrideIf(expected, to, reason, by, clock.instant()));
    }

    @Override
    public Optional<Lease> tryAcquire(String group, PartitionId partition, String owner, Duration timeout) {
        return transact(group, partition, item -> item.acquire(owner, timeout, clock.instant()));
    }

    @Override
    public Optional<Lease> renew(Lease lease, Duration timeout) {
        return transact(lease.group(), lease.partition(), item -> item.renew(lease, timeout, clock.instant()));
    }

    @Override
    public void release(Lease lease) {
        transact(lease.group(), lease.partition(), item -> item.release(lease));
    }

    @Override
    public Optional<Lease> current(String group, PartitionId partition) {
        return load(group, partition).lease();
    }
}
