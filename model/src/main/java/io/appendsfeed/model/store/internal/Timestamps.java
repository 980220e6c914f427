package io.appendsfeed.model.store.internal;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/** The {@code t} attribute: written as {@code yyyy-MM-dd'T'HH:mm:ss.SSS'Z'}, read in every ISO-8601 form others write. */
public final class Timestamps {

    private static final DateTimeFormatter WRITE =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private Timestamps() {}

    /** Millisecond precision, UTC, {@code Z}: the form every implementation of the format reads. */
    public static String format(Instant t) {
        return WRITE.format(t.truncatedTo(ChronoUnit.MILLIS));
    }

    /**
     * Accepts 0 to 9 fractional digits and {@code Z} or any offset ({@code +00:00} from .NET), and a
     * local date-time without offset, taken as UTC.
     *
     * @throws DateTimeParseException when the text is not an ISO-8601 date-time
     */
    public static Instant parse(String text) {
        try {
            return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        } catch (DateTimeParseException withoutOffset) {
            try {
                return LocalDateTime.parse(text, DateTimeFormatter.ISO_LOCAL_DATE_TIME).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException e) {
                e.addSuppressed(withoutOffset);
                throw e;
            }
        }
    }
}
