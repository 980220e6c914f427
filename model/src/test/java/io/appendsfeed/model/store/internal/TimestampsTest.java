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

    /** The formatter-free path reads the {@code Z} form exactly as the formatter does, for any digits and dates. */
    @net.jqwik.api.Property(tries = 500)
    void the_fast_path_agrees_with_the_formatter(@net.jqwik.api.ForAll @net.jqwik.api.constraints.LongRange(min = 0, max = 253_402_300_799L) long seconds,
                                                 @net.jqwik.api.ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 999_999_999) int nanos,
                                                 @net.jqwik.api.ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 9) int digits) {
        String whole = java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss").withZone(java.time.ZoneOffset.UTC)
                .format(Instant.ofEpochSecond(seconds));
        String fraction = digits == 0 ? "" : "." + String.format("%09d", nanos).substring(0, digits);
        String text = whole + fraction + "Z";
        Instant expected = java.time.OffsetDateTime.parse(text, java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        assertThat(Timestamps.parseUtc(text)).isEqualTo(expected);
        assertThat(Timestamps.parse(text)).isEqualTo(expected);
    }

    @Test
    void the_fast_path_leaves_other_forms_and_bad_fields_to_the_formatter() {
        assertThat(Timestamps.parseUtc("2024-05-01T10:00:00.5+02:00")).isNull();
        assertThat(Timestamps.parseUtc("2024-05-01T10:00:00")).isNull();
        assertThat(Timestamps.parseUtc("2024-05-01T10:00:00.Z")).isNull();
        assertThat(Timestamps.parseUtc("2024-02-30T10:00:00Z")).isNull();
        assertThat(Timestamps.parseUtc("2024-13-01T10:00:00Z")).isNull();
        assertThat(Timestamps.parseUtc("2024-05-01T24:00:00Z")).isNull();
        assertThat(Timestamps.parseUtc("2024-05-0xT10:00:00Z")).isNull();
        assertThatThrownBy(() -> Timestamps.parse("2024-02-30T10:00:00Z")).isInstanceOf(DateTimeParseException.class);
    }

    @net.jqwik.api.Property(tries = 500)
    void writes_as_the_formatter_does(@net.jqwik.api.ForAll @net.jqwik.api.constraints.LongRange(min = -62_167_219_200L, max = 253_402_300_799L) long seconds,
                                      @net.jqwik.api.ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 999_999_999) int nanos) {
        Instant t = Instant.ofEpochSecond(seconds, nanos);
        String expected = java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(java.time.ZoneOffset.UTC)
                .format(t.truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
        assertThat(Timestamps.format(t)).isEqualTo(expected);
        assertThat(Timestamps.parse(Timestamps.format(t))).isEqualTo(t.truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
    }
}
