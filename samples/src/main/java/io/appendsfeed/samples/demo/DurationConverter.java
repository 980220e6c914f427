package io.appendsfeed.samples.demo;

import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine;

/** Reads {@code 30s}, {@code 2m}, {@code 500ms}, {@code 1h} or ISO-8601 ({@code PT30S}). */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        try {
            if (v.startsWith("pt") || v.startsWith("p")) {
                return Duration.parse(value.trim().toUpperCase(Locale.ROOT));
            }
            if (v.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
            }
            long n = Long.parseLong(v.substring(0, v.length() - 1));
            switch (v.charAt(v.length() - 1)) {
                case 's': return Duration.ofSeconds(n);
                case 'm': return Duration.ofMinutes(n);
                case 'h': return Duration.ofHours(n);
                default: break;
            }
        } catch (RuntimeException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a duration: use e.g. 30s, 2m, 500ms or PT30S");
        }
        throw new CommandLine.TypeConversionException("'" + value + "' is not a duration: use e.g. 30s, 2m, 500ms or PT30S");
    }
}
