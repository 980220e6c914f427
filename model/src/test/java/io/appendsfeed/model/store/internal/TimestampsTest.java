package io.appendsfeed.model.store.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class TimestampsTest {

    @Test
    void writes_milliseconds_in_utc_with_z() {
        assertThat(EventCodec.timestamp(Instant.parse("2024-05-01T10:00:00.123999Z"))).isEqualTo("2024-05-01T10:00:00.123Z");
        assertThat(EventCodec.timestamp(Instant.parse("2024-05-01T10:00:00Z"))).isEqualTo("2024-05-01T10:00:00.000Z");
    }

    @Test
    void reads_the_forms_other_writers_use() {
        assertThat(EventCodec.parseTimestamp("2024-05-01T10:00:00.1234567+00:00")).isEqualTo(Instant.parse("2024-05-01T10:00:00.1234567Z"));
        assertThat(EventCodec.parseTimestamp("2024-05-01T10:00:00.123Z")).isEqualTo(Instant.parse("2024-05-01T10:00:00.123Z"));
        assertThat(EventCodec.parseTimestamp("2024-05-01T12:00:00.5+02:00")).isEqualTo(Instant.parse("2024-05-01T10:00:00.5Z"));
        assertThat(EventCodec.parseTimestamp("2024-05-01T10:00:00")).isEqualTo(Instant.parse("2024-05-01T10:00:00Z"));
        assertThatThrownBy(() -> EventCodec.parseTimestamp("yesterday")).isInstanceOf(DateTimeParseException.class);
        assertThatThrownBy(() -> EventCodec.parseTimestamp("2024-02-30T10:00:00Z")).isInstanceOf(DateTimeParseException.class);
    }

    /** Every digit count of the {@code Z} form reads as the offset formatter reads it. */
    @Property(tries = 500)
    void reads_the_z_form_as_the_formatter_does(@ForAll @LongRange(min = 0, max = 253_402_300_799L) long seconds,
                                                @ForAll @IntRange(min = 0, max = 999_999_999) int nanos,
                                                @ForAll @IntRange(min = 0, max = 9) int digits) {
        String whole = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC).format(Instant.ofEpochSecond(seconds));
        String text = whole + (digits == 0 ? "" : "." + String.format("%09d", nanos).substring(0, digits)) + "Z";
        Instant expected = java.time.OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        assertThat(EventCodec.parseTimestamp(text)).isEqualTo(expected);
    }

    @Property(tries = 500)
    void writes_what_it_reads_back(@ForAll @LongRange(min = -62_167_219_200L, max = 253_402_300_799L) long seconds,
                                   @ForAll @IntRange(min = 0, max = 999_999_999) int nanos) {
        Instant t = Instant.ofEpochSecond(seconds, nanos);
        assertThat(EventCodec.timestamp(t)).hasSize(24).endsWith("Z");
        assertThat(EventCodec.parseTimestamp(EventCodec.timestamp(t))).isEqualTo(t.truncatedTo(ChronoUnit.MILLIS));
    }
}
