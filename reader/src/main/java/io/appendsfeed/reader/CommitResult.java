package io.appendsfeed.reader;

/** The outcome of {@link CheckpointStore#commit}: refusals are expected outcomes, not exceptions. */
public sealed interface CommitResult {

    /** The checkpoint is now {@code stored}. */
    record Committed(StoredCheckpoint stored) implements CommitResult {}

    /**
     * The stored checkpoint is ahead of the one offered (another reader or an override moved it);
     * nothing was written: checkpoints never move backwards by accident.
     */
    record Behind(StoredCheckpoint stored) implements CommitResult {}

    /** The lease given as fence is no longer held (taken over or released); nothing was written. */
    record LeaseLost(String currentOwner) implements CommitResult {}
}
