package io.appendsfeed.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressLineTest {

    @Test
    void on_a_terminal_redraws_a_bar_in_place_and_ends_with_the_total() {
        StringWriter s = new StringWriter();
        AtomicLong done = new AtomicLong();
        try (ProgressLine p = new ProgressLine(new PrintWriter(s), true, "scanning", done::get, () -> 200, () -> "")) {
            done.set(100);
        }
        String text = s.toString();
        assertThat(text).contains("\rscanning [" + "#".repeat(15) + " ".repeat(15) + "] 50% 100 items");
        assertThat(text).containsPattern("\nscanning: 100 items in \\S+\n$");
    }

    @Test
    void elsewhere_prints_one_plain_line_when_done() {
        StringWriter s = new StringWriter();
        try (ProgressLine p = new ProgressLine(new PrintWriter(s), false, "scanning", () -> 7, () -> 0, () -> "")) {
            assertThat(s.toString()).isEmpty();
        }
        assertThat(s.toString()).matches("scanning: 7 items in \\S+\\R");
    }
}
