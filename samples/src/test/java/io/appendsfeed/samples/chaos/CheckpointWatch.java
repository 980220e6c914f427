package io.appendsfeed.samples.chaos;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.CheckpointStore;
import io.appendsfeed.reader.CheckpointStore.StoredCheckpoint;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Observes a group's checkpoints through the {@link CheckpointStore} API while readers run and
 * crash, and records every time one is seen lower than before.
 */
final class CheckpointWatch {

    private final CheckpointStore store;
    private final String group;
    private final int partitions;
    private final Map<Integer, Checkpoint> last = new HashMap<>();
    final List<String> backwards = Collections.synchronizedList(new ArrayList<>());
    int observations;

    CheckpointWatch(CheckpointStore store, String group, int partitions) {
        this.store = store;
        this.group = group;
        this.partitions = partitions;
    }

    synchronized void observe() {
        for (int p = 0; p < partitions; p++) {
            Optional<StoredCheckpoint> c = store.read(group, PartitionId.of(p));
            if (c.isEmpty()) {
                if (last.containsKey(p)) {
                    backwards.add("partition " + p + ": checkpoint " + last.get(p) + " disappeared");
                }
                continue;
            }
            Checkpoint now = c.get().checkpoint();
            Checkpoint before = last.put(p, now);
            observations++;
            if (before != null && now.compareTo(before) < 0) {
                backwards.add("partition " + p + ": checkpoint moved back from " + before + " to " + now);
            }
        }
    }
}
