package io.appendsfeed.indexer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The waits of writers racing for one partition (see {@link EpochIngester#mostWaitNanos}). */
class ConflictBackoffTest {

    private static final long STEP = 4_000_000;

    @Test
    void a_lost_race_waits_one_step_more_per_conflict_in_a_row_up_to_the_cap() {
        for (int k = 1; k <= EpochIngester.BACKOFF_STEPS; k++) {
            assertThat(EpochIngester.mostWaitNanos(STEP, k)).as("conflict %d", k).isEqualTo(k * STEP);
        }
        for (int k = EpochIngester.BACKOFF_STEPS + 1; k < EpochIngester.AGED_AFTER; k++) {
            assertThat(EpochIngester.mostWaitNanos(STEP, k)).as("conflict %d", k).isEqualTo(EpochIngester.BACKOFF_STEPS * STEP);
        }
    }

    @Test
    void the_longest_waiting_write_at_once_ahead_of_every_writer_that_waits() {
        assertThat(EpochIngester.AGED_AFTER).isGreaterThan(EpochIngester.BACKOFF_STEPS);
        for (int k = EpochIngester.AGED_AFTER; k <= 100; k++) {
            assertThat(EpochIngester.mostWaitNanos(STEP, k)).as("conflict %d", k).isZero();
        }
    }

    @Test
    void no_step_no_wait() {
        for (int k = 1; k <= 20; k++) {
            assertThat(EpochIngester.mostWaitNanos(0, k)).isZero();
        }
    }
}
