package io.appendsfeed.samples.demo;

import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.CheckpointStore;
import io.appendsfeed.reader.StoredCheckpoint;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of the {@code feed checkpoints} view, from the reader's checkpoint store (where each
 * group is, when it committed) and the feed itself (how far behind the tail that is).
 */
final class CheckpointsReport {

    private CheckpointsReport() {}

    static List<CheckpointRow> rows(CheckpointStore checkpoints, List<String> groups, FeedTally feed, Instant now) {
        List<CheckpointRow> rows = new ArrayList<>();
        for (String group : groups) {
            for (StoredCheckpoint c : checkpoints.list(group)) {
                PartitionId p = c.partition();
                long behind = feed.eventsBehind(p, c.checkpoint());
                Instant oldest = behind == 0 ? null : feed.indexedAt(p, c.checkpoint());
                Duration lagTime = behind == 0 ? Duration.ZERO : oldest == null ? null : Duration.between(oldest, now);
                rows.add(new CheckpointRow(group, p, c.checkpoint(), behind, lagTime, c.committedAt()));
            }
        }
        return rows;
    }
}
