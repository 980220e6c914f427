package io.appendsfeed.model.feed;

import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.AppendsEpoch.EpochLimits;
import io.appendsfeed.model.feed.AppendsEpoch.EpochState;
import io.appendsfeed.model.feed.AppendsEpoch.EpochWrite;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.model.StreamName;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EpochDeciderTest {

    static final EpochLimits LIMITS = EpochLimits.DEFAULT;

    /** A span as a source delivers it, with the Tip's events when it has them. */
    record In(Span span, Span tip) implements AppendsEpoch.Input {}

    static In in(String stream, long index, String... types) {
        return new In(Span.of(stream, index, types), null);
    }

    static EpochState after(EpochState s, EpochEvent... events) {
        for (EpochEvent e : events) {
            s = s.evolve(e, AppendsEpoch.encode(e).length, Instant.EPOCH);
        }
        return s;
    }

    static EpochWrite decide(EpochState s, In... inputs) {
        return AppendsEpoch.decide(s, List.of(inputs), Map.of(), LIMITS, false);
    }

    @Test
    void first_span_of_a_stream_is_add_later_ones_are_app() {
        EpochState s = after(EpochState.empty(EpochId.ZERO), new EpochEvent.Ingested(List.of(Span.of("A-1", 0, "x")), List.of()));
        EpochWrite d = decide(s, in("A-1", 1, "y"), in("B-1", 0, "z"));
        assertThat(d.ingested().add()).containsExactly(Span.of("B-1", 0, "z"));
        assertThat(d.ingested().app()).containsExactly(Span.of("A-1", 1, "y"));
        assertThat(d.consumed()).isEqualTo(2);
        assertThat(d.acceptedEvents()).isEqualTo(2);
        assertThat(d.close()).isFalse();
    }

    @Test
    void a_streams_records_in_one_batch_make_one_span() {
        EpochState s = after(EpochState.empty(EpochId.ZERO), new EpochEvent.Ingested(List.of(Span.of("A-1", 0, "x")), List.of()));
        EpochWrite d = decide(s, in("A-1", 1, "y"), in("B-1", 0, "z"), in("A-1", 2, "w"), in("B-1", 1, "v"),
                in("A-1", 2, "w", "u"));
        assertThat(d.ingested().add()).containsExactly(Span.of("B-1", 0, "z", "v"));
        assertThat(d.ingested().app()).containsExactly(Span.of("A-1", 1, "y", "w", "u"));
        assertThat(d.consumed()).isEqualTo(5);
        assertThat(d.acceptedEvents()).isEqualTo(5);
        assertThat(d.duplicateEvents()).isEqualTo(1);
    }

    @Test
    void a_span_past_an_allowed_gap_in_a_stream_the_write_holds_goes_in_the_next_write() {
        EpochWrite d = AppendsEpoch.decide(EpochState.empty(EpochId.ZERO), List.of(in("A-1", 0, "x"), in("A-1", 3, "y")),
                Map.of(), LIMITS, true);
        assertThat(d.ingested().add()).containsExactly(Span.of("A-1", 0, "x"));
        assertThat(d.consumed()).isEqualTo(1);
        assertThat(d.allowedGaps()).isEmpty();
        EpochState s = after(EpochState.empty(EpochId.ZERO), d.ingested());
        EpochWrite next = AppendsEpoch.decide(s, List.of(in("A-1", 3, "y")), Map.of(), LIMITS, true);
        assertThat(next.ingested().app()).containsExactly(Span.of("A-1", 3, "y"));
        assertThat(next.allowedGaps()).hasSize(1);
    }

    @Test
    void a_span_too_big_for_one_ingested_is_split_across_writes_each_under_the_cap() {
        String[] types = new String[15_000];
        for (int k = 0; k < types.length; k++) {
            types[k] = "SomethingHappenedWithALongName" + k;
        }
        EpochState s = EpochState.empty(EpochId.ZERO);
        List<In> rest = List.of(in("Big-1", 0, types), in("Small-1", 0, "x"));
        List<String> written = new java.util.ArrayList<>();
        int writes = 0;
        while (!rest.isEmpty()) {
            EpochWrite d = AppendsEpoch.decide(s, rest, Map.of(), LIMITS, false);
            assertThat(AppendsEpoch.encode(d.ingested()).length).isLessThanOrEqualTo(AppendsEpoch.INGESTED_MAX_BYTES);
            if (d.remainder() != null) { // bytes counted exactly: the next type would not have fitted
                assertThat(AppendsEpoch.encode(d.ingested()).length).isGreaterThan(AppendsEpoch.INGESTED_MAX_BYTES - 40);
            }
            for (Span sp : d.ingested().add()) if (sp.stream().value().equals("Big-1")) written.addAll(sp.types());
            for (Span sp : d.ingested().app()) if (sp.stream().value().equals("Big-1")) written.addAll(sp.types());
            s = after(s, d.ingested());
            List<In> left = new java.util.ArrayList<>(rest.subList(d.consumed(), rest.size()));
            if (d.remainder() != null) {
                left.set(0, new In(d.remainder(), left.get(0).tip()));
            }
            rest = left;
            writes++;
        }
        assertThat(writes).isGreaterThan(1);
        assertThat(written).containsExactly(types);
        assertThat(s.nextIndex(StreamName.parse("Big-1"))).isEqualTo(types.length);
        assertThat(s.nextIndex(StreamName.parse("Small-1"))).isEqualTo(1);
    }

    @Test
    void a_stream_neither_the_epoch_nor_the_prior_epochs_hold_is_taken_as_it_starts() {
        // where its earlier events are is not known: no gap is reported and nothing is healed
        EpochWrite d = AppendsEpoch.decide(EpochState.empty(EpochId.of(3)), List.of(in("B-1", 0, "b"),
                new In(Span.of("A-1", 5, "x"), Span.of("A-1", 0, "a", "b", "c", "d", "e", "x"))), Map.of(), LIMITS, false);
        assertThat(d.gap()).isNull();
        assertThat(d.healedEvents()).isZero();
        assertThat(d.ingested().add()).containsExactly(Span.of("B-1", 0, "b"), Span.of("A-1", 5, "x"));
    }

    @Test
    void a_stream_the_feed_never_held_is_healed_from_0_when_its_tip_holds_everything() {
        Span tip = Span.of("A-1", 0, "a", "b", "c");
        In lateFirst = new In(Span.of("A-1", 2, "c"), tip);
        // every epoch was consulted and none holds it: the ingester passes next index 0
        EpochWrite d = AppendsEpoch.decide(EpochState.empty(EpochId.of(2)), List.of(lateFirst),
                Map.of(StreamName.parse("A-1"), 0L), LIMITS, false);
        assertThat(d.ingested().add()).containsExactly(tip);
        assertThat(d.healedEvents()).isEqualTo(2);
    }

    /** A span as Jackson's tree writes it, in UTF-8. */
    private static long spanJsonBytes(Span span) {
        var o = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
        o.put("p", span.stream().value()).put("i", span.index());
        span.types().forEach(o.putArray("c")::add);
        return o.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    @Test
    void span_bytes_are_those_the_codec_writes() {
        for (Span span : List.of(Span.of("A-1", 0, "x"), Span.of("Ünïcødé-🚀 x0", 123456789, "Ö\"q\\", "t\n"),
                Span.of("Order-42", 7, "Placed", "Paid", "Shipped"))) {
            assertThat(span.headBytes() + span.typesBytes()).as(span.toString())
                    .isEqualTo(spanJsonBytes(span));
        }
    }

    @net.jqwik.api.Property(tries = 300)
    void span_bytes_are_those_the_codec_writes_for_any_text(@net.jqwik.api.ForAll String id,
                                                            @net.jqwik.api.ForAll @net.jqwik.api.constraints.NotEmpty String type) {
        net.jqwik.api.Assume.that(StreamName.problem("Cat-" + id) == null);
        Span span = Span.of("Cat-" + id, 3, type, "Plain");
        assertThat(span.headBytes() + span.typesBytes()).as(span.toString())
                .isEqualTo(spanJsonBytes(span));
    }

    @Test
    void redelivered_batch_adds_nothing() {
        EpochState s = EpochState.empty(EpochId.ZERO);
        EpochWrite first = decide(s, in("A-1", 0, "x", "y"), in("B-1", 0, "z"));
        s = after(s, first.ingested());
        EpochWrite again = decide(s, in("A-1", 0, "x", "y"), in("B-1", 0, "z"));
        assertThat(again.events()).isEmpty();
        assertThat(again.duplicateEvents()).isEqualTo(3);
        assertThat(again.consumed()).isEqualTo(2);
    }

    @Test
    void overlapping_span_is_trimmed_to_what_is_new() {
        EpochState s = after(EpochState.empty(EpochId.ZERO), new EpochEvent.Ingested(List.of(Span.of("A-1", 0, "a", "b")), List.of()));
        EpochWrite d = decide(s, in("A-1", 1, "b", "c", "d"));
        assertThat(d.ingested().app()).containsExactly(Span.of("A-1", 2, "c", "d"));
        assertThat(d.ingested().add()).isEmpty();
        assertThat(d.duplicateEvents()).isEqualTo(1);
    }

    @Test
    void gap_stops_the_decision_at_the_span_and_names_stream_and_indexes() {
        EpochState s = after(EpochState.empty(EpochId.ZERO), new EpochEvent.Ingested(List.of(Span.of("A-1", 0, "a")), List.of()));
        EpochWrite d = decide(s, in("B-1", 0, "b"), in("A-1", 3, "d"), in("C-1", 0, "c"));
        assertThat(d.gap()).isNotNull();
        assertThat(d.gap().stream()).isEqualTo(StreamName.parse("A-1"));
        assertThat(d.gap().expectedIndex()).isEqualTo(1);
        assertThat(d.gap().actualIndex()).isEqualTo(3);
        assertThat(d.consumed()).isEqualTo(1);
        assertThat(d.ingested().add()).containsExactly(Span.of("B-1", 0, "b"));
    }

    @Test
    void gap_is_filled_from_the_tip_when_the_tip_still_holds_the_missing_events() {
        EpochState s = after(EpochState.empty(EpochId.ZERO), new EpochEvent.Ingested(List.of(Span.of("A-1", 0, "a")), List.of()));
        In withTip = new In(Span.of("A-1", 3, "d"), Span.of("A-1", 0, "a", "b", "c", "d"));
        EpochWrite d = AppendsEpoch.decide(s, List.of(withTip), Map.of(), LIMITS, false);
        assertThat(d.gap()).isNull();
        assertThat(d.ingested().app()).containsExactly(Span.of("A-1", 1, "b", "c", "d"));
        assertThat(d.healedEvents()).isEqualTo(2);
    }

    @Test
    void allowed_gap_goes_through_and_is_reported() {
        EpochState s = after(EpochState.empty(EpochId.ZERO), new EpochEvent.Ingested(List.of(Span.of("A-1", 0, "a")), List.of()));
        EpochWrite d = AppendsEpoch.decide(s, List.of(in("A-1", 3, "d")), Map.of(), LIMITS, true);
        assertThat(d.ingested().app()).containsExactly(Span.of("A-1", 3, "d"));
        assertThat(d.allowedGaps()).singleElement().satisfies(g -> assertThat(g.expectedIndex()).isEqualTo(1));
    }

    @Test
    void a_gap_is_reported_allowed_only_with_the_write_that_takes_its_span() {
        EpochState s = after(EpochState.empty(EpochId.ZERO), new EpochEvent.Ingested(List.of(Span.of("A-1", 0, "a")), List.of()));
        EpochWrite d = AppendsEpoch.decide(s, List.of(in("B-1", 5, "x")), Map.of(StreamName.parse("B-1"), 1L),
                new EpochLimits(EpochLimits.MAX_EVENTS, Long.MAX_VALUE, 1), true);
        assertThat(d.close()).isTrue();
        assertThat(d.consumed()).isZero();
        assertThat(d.allowedGaps()).as("the span goes to the next epoch, which reports it").isEmpty();
    }

    @Test
    void stream_known_from_an_earlier_epoch_is_deduplicated_but_added_to_this_one() {
        EpochWrite d = AppendsEpoch.decide(EpochState.empty(EpochId.of(1)), List.of(in("A-1", 0, "a", "b", "c")),
                Map.of(StreamName.parse("A-1"), 2L), LIMITS, false);
        assertThat(d.ingested().add()).containsExactly(Span.of("A-1", 2, "c"));
        assertThat(d.duplicateEvents()).isEqualTo(2);
        EpochWrite dup = AppendsEpoch.decide(EpochState.empty(EpochId.of(1)), List.of(in("A-1", 0, "a")),
                Map.of(StreamName.parse("A-1"), 2L), LIMITS, false);
        assertThat(dup.events()).isEmpty();
    }

    @Test
    void unknown_stream_starting_after_zero_is_accepted_as_a_continuation() {
        EpochWrite d = decide(EpochState.empty(EpochId.of(4)), in("A-1", 41, "a"));
        assertThat(d.ingested().add()).containsExactly(Span.of("A-1", 41, "a"));
    }

    @Test
    void epoch_closes_at_max_streams_and_the_rest_is_left_for_the_next() {
        EpochLimits limits = new EpochLimits(EpochLimits.MAX_EVENTS, Long.MAX_VALUE, 2);
        EpochWrite d = AppendsEpoch.decide(EpochState.empty(EpochId.ZERO),
                List.of(in("A-1", 0, "a"), in("B-1", 0, "b"), in("A-1", 1, "a"), in("C-1", 0, "c"), in("D-1", 0, "d")), Map.of(), limits, false);
        assertThat(d.close()).isTrue();
        assertThat(d.consumed()).isEqualTo(3);
        assertThat(d.events()).hasSize(2).last().isInstanceOf(EpochEvent.Closed.class);
    }

    @Test
    void ingested_that_reaches_max_events_is_the_last() {
        EpochLimits limits = new EpochLimits(2, Long.MAX_VALUE, 100);
        EpochState s = after(EpochState.empty(EpochId.ZERO), new EpochEvent.Ingested(List.of(Span.of("A-1", 0, "a")), List.of()));
        EpochWrite d = AppendsEpoch.decide(s, List.of(in("A-1", 1, "b")), Map.of(), limits, false);
        assertThat(d.close()).isTrue();
        assertThat(d.consumed()).isEqualTo(1);
        EpochWrite nothingNew = AppendsEpoch.decide(s, List.of(in("A-1", 0, "a")), Map.of(), limits, false);
        assertThat(nothingNew.events()).as("a batch of duplicates does not close the epoch").isEmpty();
    }

    @Test
    void epoch_closes_before_passing_max_bytes_but_always_takes_one_span_when_empty() {
        EpochLimits limits = new EpochLimits(EpochLimits.MAX_EVENTS, 60, 100);
        EpochWrite d = AppendsEpoch.decide(EpochState.empty(EpochId.ZERO),
                List.of(in("Account-1", 0, "Opened", "Deposited"), in("Account-2", 0, "Opened")), Map.of(), limits, false);
        assertThat(d.close()).isTrue();
        assertThat(d.consumed()).isEqualTo(1);
    }

    @Test
    void an_epoch_closes_with_its_bodies_within_max_bytes() {
        EpochLimits limits = new EpochLimits(EpochLimits.MAX_EVENTS, 1000, 100);
        EpochState s = EpochState.empty(EpochId.ZERO);
        for (int k = 0; !s.isClosed(); k++) {
            EpochWrite d = AppendsEpoch.decide(s, List.of(in("Account-" + k, 0, "Opened")), Map.of(), limits, false);
            s = after(s, d.events().toArray(EpochEvent[]::new));
        }
        assertThat(s.bytes() - AppendsEpoch.encode(new EpochEvent.Closed()).length).isBetween(1000L - 40, 1000L);
    }

    @Test
    void a_big_batch_is_split_into_writes_under_the_item_limit() {
        List<In> many = new java.util.ArrayList<>();
        for (int k = 0; k < 3000; k++) {
            many.add(in("Account-" + k, 0, "Opened", "Deposited"));
        }
        EpochWrite d = AppendsEpoch.decide(EpochState.empty(EpochId.ZERO), many, Map.of(), LIMITS, false);
        assertThat(d.close()).isFalse();
        assertThat(d.consumed()).isBetween(1, 2999);
        assertThat(AppendsEpoch.encode(d.ingested()).length).isLessThanOrEqualTo(AppendsEpoch.INGESTED_MAX_BYTES);
    }

    @Test
    void a_closed_epoch_takes_nothing_its_successor_decides() {
        EpochState closed = after(EpochState.empty(EpochId.ZERO), new EpochEvent.Closed());
        EpochWrite d = decide(closed, in("A-1", 0, "a"));
        assertThat(d.events()).isEmpty();
        assertThat(d.consumed()).isZero();
    }
}
