package io.appendsfeed.reader.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ProgressTest {

    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void handled_position_moves_only_past_work_completed_with_everything_before_it() {
        Progress p = new Progress(PartitionId.ZERO, Checkpoint.of(0, 5), null);
        Progress.Entry a = p.add(Checkpoint.of(0, 5), Checkpoint.of(0, 6), T, 2);
        Progress.Entry b = p.add(Checkpoint.of(0, 6), Checkpoint.of(0, 7), T, 1);

        p.complete(b);
        assertThat(p.handled()).isEqualTo(Checkpoint.of(0, 5));
        p.complete(a);
        assertThat(p.handled()).isEqualTo(Checkpoint.of(0, 5));
        p.complete(a);
        assertThat(p.handled()).isEqualTo(Checkpoint.of(0, 7));
        assertThat(p.buffered()).isZero();
    }

    @Test
    void epoch_events_without_work_pass_at_once_and_closed_leads_to_the_next_epoch() {
        Progress p = new Progress(PartitionId.ZERO, Checkpoint.of(3, 8), null);
        p.add(Checkpoint.of(3, 8), Checkpoint.of(4, 0), T, 0);
        assertThat(p.handled()).isEqualTo(Checkpoint.of(4, 0));
        assertThat(p.read()).isEqualTo(Checkpoint.of(4, 0));
    }

    @Test
    void oldest_unhandled_is_the_index_time_of_the_first_outstanding_epoch_event() {
        Progress p = new Progress(PartitionId.ZERO, Checkpoint.START, null);
        Progress.Entry a = p.add(Checkpoint.of(0, 0), Checkpoint.of(0, 1), T, 1);
        p.add(Checkpoint.of(0, 1), Checkpoint.of(0, 2), T.plusSeconds(5), 1);
        assertThat(p.oldestUnhandled()).contains(T);
        p.complete(a);
        assertThat(p.oldestUnhandled()).contains(T.plusSeconds(5));
    }

    @Test
    void a_skipped_or_repeated_epoch_event_is_refused() {
        Progress p = new Progress(PartitionId.ZERO, Checkpoint.START, null);
        p.add(Checkpoint.of(0, 0), Checkpoint.of(0, 1), T, 1);
        assertThatThrownBy(() -> p.add(Checkpoint.of(0, 2), Checkpoint.of(0, 3), T, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("skipped or repeated");
        assertThatThrownBy(() -> p.add(Checkpoint.of(0, 0), Checkpoint.of(0, 1), T, 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void completing_more_often_than_there_is_work_is_a_bug_not_progress() {
        Progress p = new Progress(PartitionId.ZERO, Checkpoint.START, null);
        Progress.Entry a = p.add(Checkpoint.of(0, 0), Checkpoint.of(0, 1), T, 1);
        p.complete(a);
        assertThatThrownBy(() -> p.complete(a)).isInstanceOf(IllegalStateException.class);
    }
}
