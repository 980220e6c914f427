package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.PartitionId;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * One opening of a partition in the scheduler: its checkpoint math and the streams with work in
 * it. A new slot each time the partition is opened, so that calls begun under an earlier lease
 * are told apart (their outcomes no longer count). Guarded by the scheduler.
 */
final class Slot {
    final PartitionId partition;
    final Progress progress;
    final Instant notBefore;
    final Map<StreamName, StreamState> streams = new HashMap<>();
    boolean closed;

    Slot(PartitionId partition, Progress progress, Instant notBefore) {
        this.partition = partition;
        this.progress = progress;
        this.notBefore = notBefore;
    }
}
