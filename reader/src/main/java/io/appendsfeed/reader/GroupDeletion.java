package io.appendsfeed.reader;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.LeaseStore.Lease;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** What {@link DynamoCheckpointStore#deleteGroup} did. */
public sealed interface GroupDeletion {

    /**
     * The group is gone, and its deletion recorded.
     *
     * @param checkpoints the checkpoints it had, by partition (kept in the record)
     * @param itemsDeleted items of its checkpoint and parked streams deleted (0 when read back from the record)
     */
    record Deleted(String group, Map<PartitionId, Checkpoint> checkpoints, long itemsDeleted, Instant at, String by, String reason)
            implements GroupDeletion {
        public Deleted {
            Objects.requireNonNull(group, "group");
            checkpoints = Map.copyOf(checkpoints);
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(by, "by");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** Nothing was written: readers hold these partitions' leases; stop them first. */
    record Leased(List<Lease> live) implements GroupDeletion {
        public Leased {
            live = List.copyOf(live);
        }
    }
}
