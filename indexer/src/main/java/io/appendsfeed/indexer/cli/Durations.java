package io.appendsfeed.indexer.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.TypeConversionException;

/**
 * Durations as people type them: {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h}, {@code 1d},
 * combinations such as {@code 1m30s}, or ISO-8601 ({@code PT0.5S}); every {@code Duration} option's converter.
 */
final class Durations {

    static final String FORMS = "give e.g. 500ms, 5s, 2m, 1h, 1m30s or ISO-8601 (PT5S)";
    private static final Map<String, ChronoUnit> UNITS = Map.of("ms", ChronoUnit.MILLIS, "s", ChronoUnit.SECONDS,
            "m", ChronoUnit.MINUTES, "h", ChronoUnit.HOURS, "d", ChronoUnit.DAYS);
    private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h|d)");
    private static final Pattern WHOLE = Pattern.compile("(\\d+(ms|s|m|h|d))+");

    private Durations() {}

    /** @throws IllegalArgumentException saying which forms are accepted */
    static Duration parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("p")) {
                return Duration.parse(t.toUpperCase(Locale.ROOT));
            }
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a duration: " + FORMS, e);
        }
        if (!WHOLE.matcher(t).matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration: " + FORMS);
        }
        Duration d = Duration.ZERO;
        for (Matcher m = PART.matcher(t); m.find(); ) {
            d = d.plus(Long.parseLong(m.group(1)), UNITS.get(m.group(2))); // a day as 24 h
        }
        return d;
    }

    /** {@link #parse}, for picocli: a malformed value is a usage error of one line. */
    static Duration convert(String value) {
        try {
            return parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
