package io.appendsfeed.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class OutputTest {

    @Test
    void pads_columns_to_the_widest_cell_and_right_aligns_numbers() {
        StringWriter s = new StringWriter();
        new Output.Table("NAME", "COUNT>", "NOTE").row("a", 1, "x").row("longer", 12345, null).print(new PrintWriter(s));
        assertThat(s.toString().lines()).containsExactly(
                "NAME    COUNT  NOTE",
                "a           1  x",
                "longer  12345  -");
    }

    @Test
    void durations_read_at_a_glance() {
        assertThat(Output.duration(java.time.Duration.ZERO)).isEqualTo("0s");
        assertThat(Output.duration(java.time.Duration.ofMillis(850))).isEqualTo("850ms");
        assertThat(Output.duration(java.time.Duration.ofSeconds(303))).isEqualTo("5m03s");
        assertThat(Output.duration(java.time.Duration.ofMinutes(125))).isEqualTo("2h05m");
        assertThat(Output.duration(java.time.Duration.ofHours(76))).isEqualTo("3d04h");
    }

    @Test
    void progress_on_a_terminal_redraws_a_bar_in_place_and_ends_with_the_total() {
        StringWriter s = new StringWriter();
        AtomicLong done = new AtomicLong();
        try (Output.Progress p = new Output.Progress(new PrintWriter(s), true, "scanning", done::get, () -> 200, () -> "")) {
            done.set(100);
        }
        String text = s.toString();
        assertThat(text).contains("\rscanning [" + "#".repeat(15) + " ".repeat(15) + "] 50% 100 items");
        assertThat(text).containsPattern("\nscanning: 100 items in \\S+\n$");
    }

    @Test
    void progress_elsewhere_prints_one_plain_line_when_done() {
        StringWriter s = new StringWriter();
        try (Output.Progress p = new Output.Progress(new PrintWriter(s), false, "scanning", () -> 7, () -> 0, () -> "")) {
            assertThat(s.toString()).isEmpty();
        }
        assertThat(s.toString()).matches("scanning: 7 items in \\S+\\R");
    }
}
