package io.appendsfeed.reader.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TailWaitTest {

    @Test
    void waits_start_short_after_new_events_and_double_up_to_the_poll_interval() {
        Duration interval = Duration.ofMillis(500);
        List<Long> waits = new ArrayList<>();
        Duration w = PartitionRunner.tailWait(null, interval);
        for (int k = 0; k < 7; k++) {
            waits.add(w.toMillis());
            w = PartitionRunner.tailWait(w, interval);
        }
        assertThat(waits).containsExactly(25L, 50L, 100L, 200L, 400L, 500L, 500L);
    }

    @Test
    void a_poll_interval_below_the_first_wait_is_kept() {
        assertThat(PartitionRunner.tailWait(null, Duration.ofMillis(10))).isEqualTo(Duration.ofMillis(10));
        assertThat(PartitionRunner.tailWait(Duration.ofMillis(10), Duration.ofMillis(10))).isEqualTo(Duration.ofMillis(10));
    }
}
