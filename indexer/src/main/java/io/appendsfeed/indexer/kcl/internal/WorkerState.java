package io.appendsfeed.indexer.kcl.internal;

import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.kcl.KclConfig;
import io.appendsfeed.indexer.internal.RejectedLog;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** What a worker's record processors share: the indexer, the settings, and whether the worker is stopping. */
public final class WorkerState {

    private final Indexer indexer;
    private final KclConfig config;
    private final RejectedLog rejectedLog;
    private final String storeTable;
    private final Object lock = new Object();
    private final AtomicLong recordsIngested = new AtomicLong();
    private volatile boolean closing;

    public WorkerState(Indexer indexer, KclConfig config, RejectedLog rejectedLog, String storeTable) {
        this.indexer = indexer;
        this.config = config;
        this.rejectedLog = rejectedLog;
        this.storeTable = storeTable;
    }

    public Indexer indexer() { return indexer; }
    public KclConfig config() { return config; }
    public RejectedLog rejectedLog() { return rejectedLog; }
    public String storeTable() { return storeTable; }
    public long recordsIngested() { return recordsIngested.get(); }

    void ingested(int records) {
        recordsIngested.addAndGet(records);
    }

    /** Wakes every processor waiting to retry: they give up their batch without checkpointing it. */
    public void close() {
        synchronized (lock) {
            closing = true;
            lock.notifyAll();
        }
    }

    /** Waits up to {@code d}; @return false when the worker is closing (or the thread interrupted) */
    boolean pause(Duration d) {
        synchronized (lock) {
            if (!closing) {
                try {
                    lock.wait(Math.max(1, d.toMillis()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return !closing;
        }
    }
}
