package io.appendsfeed.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.indexer.cli.CoverageCheck.Problem;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Partitioner;
import io.appendsfeed.model.feed.Span;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class CoverageCheckTest {

    private static final StreamName A = StreamName.parse("Account-1");
    private static final PartitionId P0 = PartitionId.ZERO;

    @Test
    void spans_covering_the_stream_once_in_order_have_no_problem() {
        CoverageCheck c = new CoverageCheck(1);
        c.span(P0, Checkpoint.of(0, 0), span(0, 2));
        c.span(P0, Checkpoint.of(0, 1), span(2, 3));
        assertThat(c.finish(Map.of(A, 5L), s -> 5L)).isEmpty();
        assertThat(c.spans()).isEqualTo(2);
        assertThat(c.events()).isEqualTo(5);
    }

    @Test
    void a_partial_overlap_reports_only_the_repeated_events() {
        CoverageCheck c = new CoverageCheck(1);
        c.span(P0, Checkpoint.of(0, 0), span(0, 3));
        c.span(P0, Checkpoint.of(0, 1), span(1, 4));
        assertThat(kinds(c.finish(Map.of(A, 5L), s -> 5L))).containsExactly("DUPLICATE events 1..2 again");
    }

    @Test
    void a_late_span_that_fills_part_of_a_gap_leaves_the_rest_a_gap() {
        CoverageCheck c = new CoverageCheck(1);
        c.span(P0, Checkpoint.of(0, 0), span(0, 1));
        c.span(P0, Checkpoint.of(0, 1), span(5, 1));
        c.span(P0, Checkpoint.of(0, 2), span(2, 2));
        assertThat(kinds(c.finish(Map.of(A, 6L), s -> 6L))).containsExactlyInAnyOrder(
                "OUT_OF_ORDER events 2..3 after it", "GAP index 2 (event 1 missing)", "GAP index 5 (event 4 missing)");
    }

    @Test
    void a_late_span_reaching_past_the_gap_is_out_of_order_then_duplicate() {
        CoverageCheck c = new CoverageCheck(1);
        c.span(P0, Checkpoint.of(0, 0), span(2, 2));
        c.span(P0, Checkpoint.of(0, 1), span(0, 3));
        assertThat(kinds(c.finish(Map.of(A, 4L), s -> 4L))).containsExactly("OUT_OF_ORDER events 0..1 after it", "DUPLICATE event 2 again");
    }

    @Test
    void a_span_in_the_wrong_partition_is_named_with_its_home() {
        CoverageCheck c = new CoverageCheck(4);
        PartitionId home = Partitioner.route(A, 4);
        PartitionId other = PartitionId.of((home.value() + 1) % 4);
        c.span(other, Checkpoint.of(0, 0), span(0, 1));
        List<Problem> problems = c.finish(Map.of(A, 1L), s -> 1L);
        assertThat(problems).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(Problem.Kind.WRONG_PARTITION);
            assertThat(p.expected()).isEqualTo("partition " + home);
        });
    }

    @Test
    void events_indexed_beyond_the_scan_but_written_since_are_not_a_problem() {
        CoverageCheck c = new CoverageCheck(1);
        c.span(P0, Checkpoint.of(0, 0), span(0, 3));
        assertThat(c.finish(Map.of(A, 2L), s -> 3L)).isEmpty();
        assertThat(kinds(c.finish(Map.of(A, 2L), s -> 2L))).containsExactly("BEYOND_STORE indexed up to index 2");
    }

    /** Any split of a stream into spans verifies in order; delivered shuffled, nothing is missing, only out of order. */
    @Property(tries = 200)
    void shuffled_spans_are_out_of_order_never_gaps(@ForAll @IntRange(min = 1, max = 40) int events, @ForAll long seed) {
        Random random = new Random(seed);
        List<Span> spans = new ArrayList<>();
        for (int i = 0; i < events; ) {
            int n = 1 + random.nextInt(Math.min(5, events - i));
            spans.add(span(i, n));
            i += n;
        }
        CoverageCheck inOrder = new CoverageCheck(1);
        spans.forEach(s -> inOrder.span(P0, Checkpoint.START, s));
        assertThat(inOrder.finish(Map.of(A, (long) events), s -> (long) events)).isEmpty();

        Collections.shuffle(spans, random);
        CoverageCheck shuffled = new CoverageCheck(1);
        spans.forEach(s -> shuffled.span(P0, Checkpoint.START, s));
        List<Problem> problems = shuffled.finish(Map.of(A, (long) events), s -> (long) events);
        assertThat(problems).allMatch(p -> p.kind() == Problem.Kind.OUT_OF_ORDER);
        boolean sorted = true;
        for (int k = 1; k < spans.size(); k++) {
            sorted &= spans.get(k - 1).index() < spans.get(k).index();
        }
        assertThat(problems.isEmpty()).isEqualTo(sorted);
    }

    private static Span span(long index, int count) {
        List<String> types = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            types.add("E" + (index + k));
        }
        return new Span(A, index, types);
    }

    private static List<String> kinds(List<Problem> problems) {
        return problems.stream().map(p -> p.kind() + " " + p.found()).toList();
    }
}
