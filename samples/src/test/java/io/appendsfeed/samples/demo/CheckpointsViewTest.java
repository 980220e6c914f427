package io.appendsfeed.samples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckpointsViewTest {

    @Test
    void shows_group_partition_checkpoint_both_ways_lag_and_commit_time() {
        String text = CheckpointsView.render(List.of(
                new CheckpointRow("notifier", PartitionId.of(1), Checkpoint.of(2, 42), 1234, Duration.ofMillis(2500),
                        Instant.parse("2026-11-23T09:30:01.123456Z")),
                new CheckpointRow("projector", PartitionId.of(0), Checkpoint.START, 0, null, null)));
        List<String> lines = text.lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).contains("GROUP", "PARTITION", "CHECKPOINT", "RAW", "LAG EVENTS", "LAG TIME", "LAST COMMITTED");
        assertThat(lines.get(1)).contains("notifier", " 1 ", "2/42", "2000042", "1,234", "2.5s", "2026-11-23T09:30:01.123Z");
        assertThat(lines.get(2)).contains("projector", "0/0", "never").contains(" - ");
    }
}
