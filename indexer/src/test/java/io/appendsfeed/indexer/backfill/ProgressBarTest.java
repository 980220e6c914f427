package io.appendsfeed.indexer.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProgressBarTest {

    @Test
    void the_bar_is_redrawn_in_place_and_ends_with_a_new_line_when_done() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ProgressBar bar = new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        bar.accept(new BackfillProgress(500, 1000, 40, 900, 0, Duration.ofSeconds(2), false));
        bar.accept(new BackfillProgress(1200, 1000, 90, 2000, 5, Duration.ofSeconds(4), true));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out).startsWith("\r[" + "#".repeat(15) + ".".repeat(15) + "] 50%, 500 items of ~1,000");
        assertThat(out).contains("250 items/s").contains("\r[" + "#".repeat(30) + "] 100%, 1,200 items").endsWith(System.lineSeparator());
        assertThat(new BackfillProgress(1200, 1000, 0, 0, 0, Duration.ofSeconds(1), false).percent())
                .as("an estimate passed before the end shows 99%, never 100% or more").isEqualTo(99);
        assertThat(new BackfillProgress(10, -1, 0, 0, 0, Duration.ofSeconds(1), false).percent()).isEqualTo(-1);
    }
}
