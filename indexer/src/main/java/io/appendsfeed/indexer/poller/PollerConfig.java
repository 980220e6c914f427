package io.appendsfeed.indexer.poller;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

/**
 * Configuration of a {@link StreamsPoller}; start from {@link #of(String)}.
 *
 * @param storeTable the store table whose stream is read (Streams on, new images)
 * @param idleWait the longest wait between polls while no shard returns records
 * @param retryBackoff wait before retrying a shard after a failure that may pass (throttling, timeouts)
 * @param owner this poller's name in the lease, unique per instance (one that finds the lease under its own name takes it at once)
 * @param leaseDuration how long the lease holds without renewal; the holder renews it every third of it
 */
public record PollerConfig(String storeTable, Duration idleWait, int recordsPerRead, OnRejected onRejected,
                           Duration retryBackoff, String owner, Duration leaseDuration) {

    public static final Duration IDLE_WAIT = Duration.ofMillis(200);
    public static final Duration RETRY_BACKOFF = Duration.ofSeconds(1);
    public static final Duration LEASE_DURATION = Duration.ofSeconds(10);
    /** Below this, renewals (a write every third of it) would be a load of their own. */
    public static final Duration MIN_LEASE_DURATION = Duration.ofMillis(300);
    /** DynamoDB Streams' own limit per {@code GetRecords}. */
    public static final int MAX_RECORDS_PER_READ = 1000;

    /** What the poller does with a record the indexer rejects. */
    public enum OnRejected {
        /** Stop reading that shard, with an ERROR naming the record; other shards carry on. Fix and restart. */
        STOP_SHARD,
        /** Append it to {@code $AppendsRejected-0} in the index table (durably, with the reason) and read on. */
        RECORD_AND_CONTINUE
    }

    public PollerConfig {
        if (storeTable == null || storeTable.isBlank() || owner == null || owner.isBlank()) {
            throw new IllegalArgumentException("storeTable and owner must be non-empty");
        }
        if (idleWait == null || idleWait.isNegative() || retryBackoff == null || retryBackoff.isNegative()) {
            throw new IllegalArgumentException("idleWait and retryBackoff must be >= 0");
        }
        if (recordsPerRead < 1 || recordsPerRead > MAX_RECORDS_PER_READ) {
            throw new IllegalArgumentException("recordsPerRead must be in [1, " + MAX_RECORDS_PER_READ + "], was " + recordsPerRead);
        }
        Objects.requireNonNull(onRejected, "onRejected");
        if (leaseDuration == null || leaseDuration.compareTo(MIN_LEASE_DURATION) < 0) {
            throw new IllegalArgumentException("leaseDuration must be at least " + MIN_LEASE_DURATION + ", was " + leaseDuration);
        }
    }

    /** The defaults, with an owner made of the host name and a random suffix. */
    public static PollerConfig of(String storeTable) {
        return new PollerConfig(storeTable, IDLE_WAIT, MAX_RECORDS_PER_READ, OnRejected.STOP_SHARD, RETRY_BACKOFF,
                host() + "-" + UUID.randomUUID().toString().substring(0, 8), LEASE_DURATION);
    }

    public PollerConfig withIdleWait(Duration v) { return new PollerConfig(storeTable, v, recordsPerRead, onRejected, retryBackoff, owner, leaseDuration); }
    public PollerConfig withRecordsPerRead(int v) { return new PollerConfig(storeTable, idleWait, v, onRejected, retryBackoff, owner, leaseDuration); }
    public PollerConfig withOnRejected(OnRejected v) { return new PollerConfig(storeTable, idleWait, recordsPerRead, v, retryBackoff, owner, leaseDuration); }
    public PollerConfig withRetryBackoff(Duration v) { return new PollerConfig(storeTable, idleWait, recordsPerRead, onRejected, v, owner, leaseDuration); }
    public PollerConfig withOwner(String v) { return new PollerConfig(storeTable, idleWait, recordsPerRead, onRejected, retryBackoff, v, leaseDuration); }
    public PollerConfig withLeaseDuration(Duration v) { return new PollerConfig(storeTable, idleWait, recordsPerRead, onRejected, retryBackoff, owner, v); }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown-host"; // the random suffix keeps the owner unique
        }
    }
}
