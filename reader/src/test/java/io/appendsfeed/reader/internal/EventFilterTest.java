package io.appendsfeed.reader.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EventFilterTest {

    @Test
    void spans_of_other_categories_and_events_of_other_types_are_left_out_keeping_indices() {
        StreamCall.EventFilter f = new StreamCall.EventFilter(Set.of("Order"), Set.of("Paid", "Shipped"));
        EpochEvent e = new EpochEvent.Ingested(
                List.of(Span.of("Order-1", 3, "Placed", "Paid"), Span.of("Account-1", 0, "Paid")),
                List.of(Span.of("Order-1", 5, "Shipped")));

        assertThat(f.spans(e)).containsOnlyKeys(io.appendsfeed.model.StreamName.parse("Order-1"));
        assertThat(f.spans(e).values().iterator().next()).extracting(FeedEvent::toString)
                .containsExactly("Order-1@4:Paid", "Order-1@5:Shipped");
    }

    @Test
    void overlapping_spans_give_each_event_once_in_index_order_and_closed_gives_nothing() {
        StreamCall.EventFilter f = new StreamCall.EventFilter(Set.of(), Set.of());
        EpochEvent e = new EpochEvent.Ingested(List.of(Span.of("A-1", 2, "c", "d")), List.of(Span.of("A-1", 0, "a", "b", "c")));

        assertThat(f.spans(e).values().iterator().next()).extracting(FeedEvent::index).containsExactly(0L, 1L, 2L, 3L);
        assertThat(f.spans(new EpochEvent.Closed())).isEmpty();
    }
}
