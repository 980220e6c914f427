package io.appendsfeed.indexer.backfill.internal;

import java.util.concurrent.TimeUnit;

/** Spreads items over time so that at most {@code perSecond} pass per second, over all threads; 0 lets all through. */
public final class RateLimiter {

    private final int perSecond;
    private long nextFreeNanos = System.nanoTime();

    public RateLimiter(int perSecond) {
        this.perSecond = perSecond;
    }

    /** Blocks until {@code items} more may pass. */
    public void acquire(int items) {
        if (perSecond <= 0 || items <= 0) {
            return;
        }
        try {
            TimeUnit.NANOSECONDS.sleep(reserve(items));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the reader stops at its next check
        }
    }

    private synchronized long reserve(int items) {
        long now = System.nanoTime();
        long start = Math.max(now, nextFreeNanos);
        nextFreeNanos = start + items * 1_000_000_000L / perSecond;
        return start - now;
    }
}
