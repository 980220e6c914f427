package io.appendsfeed.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
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
}
