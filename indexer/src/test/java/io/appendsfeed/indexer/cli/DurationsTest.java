package io.appendsfeed.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void accepts_what_people_type_and_iso_8601() {
        assertThat(FeedCommand.duration("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(FeedCommand.duration("5s")).isEqualTo(Duration.ofSeconds(5));
        assertThat(FeedCommand.duration("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(FeedCommand.duration("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(FeedCommand.duration("1d")).isEqualTo(Duration.ofDays(1));
        assertThat(FeedCommand.duration("1m30s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(FeedCommand.duration(" 30S ")).isEqualTo(Duration.ofSeconds(30));
        assertThat(FeedCommand.duration("PT0.5S")).isEqualTo(Duration.ofMillis(500));
        assertThat(FeedCommand.duration("pt2m")).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void refuses_anything_else_naming_the_forms() {
        for (String bad : new String[] {"", "5", "5 s", "-5s", "5sec", "PT", "1.5s", "s5"}) {
            assertThatThrownBy(() -> FeedCommand.duration(bad)).as(bad).isInstanceOf(picocli.CommandLine.TypeConversionException.class)
                    .hasMessageContaining("is not a duration: give e.g. 500ms, 5s, 2m");
        }
    }
}
