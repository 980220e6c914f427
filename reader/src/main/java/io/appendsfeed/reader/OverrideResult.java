package io.appendsfeed.reader;

import java.util.Objects;
import java.util.Optional;

/** What a conditional override ({@link DynamoCheckpointStore#overrideIf}) did. */
public sealed interface OverrideResult {

    /** The checkpoint was moved and the move recorded. */
    record Applied(StoredCheckpoint checkpoint) implements OverrideResult {
        public Applied {
            Objects.requireNonNull(checkpoint, "checkpoint");
        }
    }

    /**
     * Nothing was written: the stored checkpoint is not the one the caller expected (someone else,
     * a reader's commit or another operator, moved it since the caller looked).
     *
     * @param current what is stored now; empty when the group has no checkpoint in the partition
     */
    record Moved(Optional<StoredCheckpoint> current) implements OverrideResult {
        public Moved {
            Objects.requireNonNull(current, "current");
        }
    }
}
