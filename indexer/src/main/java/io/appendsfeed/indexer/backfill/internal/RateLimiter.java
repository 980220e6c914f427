package io.appendsfeed.indexer.backfill.internal;

import java.util.concurrent.locks.LockSupport;

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
        long wait = reserve(items);
        while (wait > 0 && !Thread.currentThread().isInterrupted()) {
            long until = System.nanoTime() + wait;
            LockSupport.parkNanos(wait);
            wait = until - System.nanoTime();
        }
    }

    private synchronized long reserve(int items) {
        long now = System.nanoTime();
        long start = Math.max(now, nextFreeNanos);
        nextFreeNanos = start + items * 1_000_000_000L / perSecond;
        return start - now;
    }
}
