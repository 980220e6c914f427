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

    /**
     * Millisecond precision, UTC, {@code Z}: the form every implementation of the format reads.
     * Written without a formatter for years 0 to 9999 (every event the indexer writes has one; the
     * formatter was a few percent of a batch's CPU), with {@link DateTimeFormatter} otherwise.
     */
    public static String format(Instant t) {
        long seconds = t.getEpochSecond();
        if (seconds < -62_167_219_200L || seconds > 253_402_300_799L) {
            return WRITE.format(t.truncatedTo(ChronoUnit.MILLIS));
        }
        long days = Math.floorDiv(seconds, 86_400L);
        int secondOfDay = (int) Math.floorMod(seconds, 86_400L);
        // civil from days (proleptic Gregorian), in integer arithmetic
        long z = days + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long doe = z - era * 146_097;
        long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        int day = (int) (doy - (153 * mp + 2) / 5 + 1);
        int month = (int) (mp < 10 ? mp + 3 : mp - 9);
        int year = (int) (yoe + era * 400 + (month <= 2 ? 1 : 0));
        char[] c = new char[24];
        put(c, 0, year, 4);
        c[4] = '-';
        put(c, 5, month, 2);
        c[7] = '-';
        put(c, 8, day, 2);
        c[10] = 'T';
        put(c, 11, secondOfDay / 3600, 2);
        c[13] = ':';
        put(c, 14, secondOfDay / 60 % 60, 2);
        c[16] = ':';
        put(c, 17, secondOfDay % 60, 2);
        c[19] = '.';
        put(c, 20, t.getNano() / 1_000_000, 3);
        c[23] = 'Z';
        return new String(c);
    }

    private static void put(char[] c, int at, int value, int digits) {
        for (int k = at + digits - 1; k >= at; k--) {
            c[k] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    /**
     * Accepts 0 to 9 fractional digits and {@code Z} or any offset ({@code +00:00} from .NET), and a
     * local date-time without offset, taken as UTC.
     *
     * @throws DateTimeParseException when the text is not an ISO-8601 date-time
     */
    public static Instant parse(String text) {
        Instant fast = parseUtc(text);
        if (fast != null) {
            return fast;
        }
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

    /**
     * The form every writer of the format uses, {@code yyyy-MM-ddTHH:mm:ss[.f…]Z} (0 to 9 fractional
     * digits, UTC), read without a formatter: the indexer reads one per Streams record, and
     * {@link DateTimeFormatter} was a fifth of its CPU per record (see samples/BENCHMARKS.md,
     * "Indexer profile"). Null for any other form, or a field out of range, which {@link #parse}
     * then reads (or rejects) with the formatter.
     */
    static Instant parseUtc(String t) {
        int len = t.length();
        if (len < 20 || len > 30 || t.charAt(len - 1) != 'Z' || t.charAt(4) != '-' || t.charAt(7) != '-' || t.charAt(10) != 'T'
                || t.charAt(13) != ':' || t.charAt(16) != ':') {
            return null;
        }
        int year = digits(t, 0, 4);
        int month = digits(t, 5, 7);
        int day = digits(t, 8, 10);
        int hour = digits(t, 11, 13);
        int minute = digits(t, 14, 16);
        int second = digits(t, 17, 19);
        int nanos = 0;
        if (len > 20) {
            if (t.charAt(19) != '.' || len == 21) {
                return null;
            }
            int fraction = digits(t, 20, len - 1);
            if (fraction < 0) {
                return null;
            }
            nanos = fraction;
            for (int k = len - 1 - 20; k < 9; k++) {
                nanos *= 10;
            }
        }
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > lengthOfMonth(year, month) || hour < 0 || hour > 23
                || minute < 0 || minute > 59 || second < 0 || second > 59) {
            return null;
        }
        return Instant.ofEpochSecond(epochDay(year, month, day) * 86_400L + hour * 3_600L + minute * 60L + second, nanos);
    }

    private static int lengthOfMonth(int year, int month) {
        if (month == 2) {
            return (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
        }
        return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date (the civil-from-days inverse, in integer arithmetic). */
    private static long epochDay(int year, int month, int day) {
        long y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        long yoe = y - era * 400;
        long doy = (153L * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146_097 + doe - 719_468;
    }

    /** The decimal number in {@code t[from, to)} (at most 9 digits), or -1 when a character is no digit. */
    private static int digits(String t, int from, int to) {
        int v = 0;
        for (int k = from; k < to; k++) {
            char c = t.charAt(k);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
