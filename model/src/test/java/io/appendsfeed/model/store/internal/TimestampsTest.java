package io.appendsfeed.model.store.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.junit.jupiter.api.Test;

class TimestampsTest {

    @Test
    void writes_milliseconds_in_utc_with_z() {
        assertThat(Timestamps.format(Instant.parse("2024-05-01T10:00:00.123999Z"))).isEqualTo("2024-05-01T10:00:00.123Z");
        assertThat(Timestamps.format(Instant.parse("2024-05-01T10:00:00Z"))).isEqualTo("2024-05-01T10:00:00.000Z");
    }

    @Test
    void reads_the_forms_other_writers_use() {
        assertThat(Timestamps.parse("2024-05-01T10:00:00.1234567+00:00")).isEqualTo(Instant.parse("2024-05-01T10:00:00.1234567Z"));
        assertThat(Timestamps.parse("2024-05-01T10:00:00.123Z")).isEqualTo(Instant.parse("2024-05-01T10:00:00.123Z"));
        assertThat(Timestamps.parse("2024-05-01T12:00:00.5+02:00")).isEqualTo(Instant.parse("2024-05-01T10:00:00.5Z"));
        assertThat(Timestamps.parse("2024-05-01T10:00:00")).isEqualTo(Instant.parse("2024-05-01T10:00:00Z"));
        assertThatThrownBy(() -> Timestamps.parse("yesterday")).isInstanceOf(DateTimeParseException.class);
    }
}
