package io.appendsfeed.samples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.samples.demo.FeedTally.StreamCounter;
import org.junit.jupiter.api.Test;

class StreamCounterTest {

    private static final StreamName S = StreamName.parse("Account-1");

    @Test
    void in_order_spans_count_to_the_stream_version() {
        StreamCounter c = new StreamCounter(true);
        c.record(S, 0, 2);
        c.record(S, 2, 3);
        assertThat(c.tally("indexed").count(S)).isEqualTo(5);
        assertThat(c.total()).isEqualTo(5);
        assertThat(c.tally("indexed").problems()).isEmpty();
    }

    @Test
    void redelivered_span_counts_once_and_is_a_problem_only_where_repeats_must_not_happen() {
        StreamCounter handler = new StreamCounter(false);
        StreamCounter feed = new StreamCounter(true);
        for (StreamCounter c : new StreamCounter[] {handler, feed}) {
            c.record(S, 0, 2);
            c.record(S, 1, 3); // overlaps event 1
            assertThat(c.total()).isEqualTo(4);
            assertThat(c.repeats()).isEqualTo(1);
        }
        assertThat(handler.tally("handled").problems()).isEmpty();
        assertThat(feed.tally("indexed").problems()).containsExactly("Account-1: events 1..1 came twice");
    }

    @Test
    void gap_is_a_problem() {
        StreamCounter c = new StreamCounter(false);
        c.record(S, 0, 1);
        c.record(S, 3, 1);
        assertThat(c.tally("handled").problems()).containsExactly("Account-1: gap, events 1..2 never came (next came 3)");
    }
}
