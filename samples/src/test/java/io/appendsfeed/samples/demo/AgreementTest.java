package io.appendsfeed.samples.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.samples.demo.Agreement.Tally;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AgreementTest {

    private static final StreamName A = StreamName.parse("Account-a");
    private static final StreamName B = StreamName.parse("Account-b");

    @Test
    void equal_tallies_agree() {
        Agreement.Report r = Agreement.check(List.of(
                Tally.of("written", Map.of(A, 3L, B, 1L)), Tally.of("indexed", Map.of(A, 3L, B, 1L))), List.of());
        assertThat(r.agrees()).isTrue();
        assertThat(r.render(5)).contains("AGREE").contains("written").contains("4 events in 2 streams");
    }

    @Test
    void a_stream_counted_differently_disagrees_and_is_named() {
        Agreement.Report r = Agreement.check(List.of(
                Tally.of("written", Map.of(A, 3L, B, 1L)), Tally.of("indexed", Map.of(A, 3L, B, 1L)),
                Tally.of("handled", Map.of(A, 2L, B, 1L))), List.of());
        assertThat(r.agrees()).isFalse();
        assertThat(r.problems()).containsExactly("Account-a: written 3, indexed 3, handled 2");
        assertThat(r.render(5)).contains("DISAGREE").contains("Account-a: written 3, indexed 3, handled 2");
    }

    @Test
    void a_stream_missing_from_one_tally_disagrees() {
        Agreement.Report r = Agreement.check(List.of(
                Tally.of("written", Map.of(A, 3L, B, 1L)), Tally.of("indexed", Map.of(A, 3L))), List.of());
        assertThat(r.agrees()).isFalse();
        assertThat(r.problems()).containsExactly("Account-b: written 1, indexed 0");
    }

    @Test
    void a_problem_noticed_by_a_tally_disagrees_even_when_counts_match() {
        Agreement.Report r = Agreement.check(List.of(
                Tally.of("written", Map.of(A, 3L)),
                new Tally("indexed", Map.of(A, 3L), List.of("Account-a: event 1 twice"))), List.of());
        assertThat(r.agrees()).isFalse();
        assertThat(r.problems()).containsExactly("indexed: Account-a: event 1 twice");
    }

    @Test
    void a_problem_from_another_check_disagrees() {
        Agreement.Report r = Agreement.check(List.of(Tally.of("written", Map.of(A, 3L)), Tally.of("indexed", Map.of(A, 3L))),
                List.of("balances: Account-a has 5, the store folds to 7"));
        assertThat(r.agrees()).isFalse();
        assertThat(r.render(5)).contains("balances: Account-a has 5, the store folds to 7");
    }

    @Test
    void one_tally_is_nothing_to_compare() {
        assertThatThrownBy(() -> Agreement.check(List.of(Tally.of("written", Map.of())), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
