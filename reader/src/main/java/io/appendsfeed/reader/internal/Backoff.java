package io.appendsfeed.reader.internal;

import java.time.Duration;
import software.amazon.awssdk.retries.api.BackoffStrategy;

/**
 * Exponential backoff between {@code min} and {@code max}: the AWS SDK's own policy
 * ({@link BackoffStrategy#exponentialDelayHalfJitter}), the one retry policy of appendsfeed.
 */
public record Backoff(Duration min, Duration max) {

    /** The wait before attempt {@code attempt + 1}, given {@code attempt >= 1} failures so far. */
    public Duration after(int attempt) {
        return BackoffStrategy.exponentialDelayHalfJitter(min, max).computeDelay(Math.max(1, attempt));
    }
}
