package io.appendsfeed.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void accepts_what_people_type_and_iso_8601() {
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("5s")).isEqualTo(Duration.ofSeconds(5));
        assertThat(Durations.parse("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(Durations.parse("1d")).isEqualTo(Duration.ofDays(1));
        assertThat(Durations.parse("1m30s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Durations.parse(" 30S ")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("PT0.5S")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("pt2m")).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void refuses_anything_else_naming_the_forms() {
        for (String bad : new String[] {"", "5", "5 s", "-5s", "5sec", "PT", "1.5s", "s5"}) {
            assertThatThrownBy(() -> Durations.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is not a duration: give e.g. 500ms, 5s, 2m");
        }
    }
}
