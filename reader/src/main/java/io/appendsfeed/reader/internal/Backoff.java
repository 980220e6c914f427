package io.appendsfeed.reader.internal;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/** Exponential backoff with jitter between {@code min} and {@code max}. */
public record Backoff(Duration min, Duration max) {

    /** The wait before attempt {@code attempt + 1}, given {@code attempt >= 1} failures so far. */
    public Duration after(int attempt) {
        long minMs = min.toMillis();
        int shift = Math.min(Math.max(attempt - 1, 0), 20);
        long ms = Math.min(max.toMillis(), minMs << shift);
        long jitter = ms / 4 == 0 ? 0 : ThreadLocalRandom.current().nextLong(ms / 4 + 1);
        return Duration.ofMillis(Math.max(1, Math.min(max.toMillis(), ms - ms / 8 + jitter)));
    }
}
