package io.appendsfeed.indexer.kcl;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Configuration of a {@link KclIndexer}; build with {@link #builder(String, String)}.
 *
 * @param applicationName the KCL application: workers with the same name share the shards
 * @param leaseTable the KCL lease table (created when missing); one per application and stream
 * @param streamArn the store table's stream ({@link KclIndexer#streamArn})
 * @param workerId this worker's name in the lease table; unique per process
 * @param failoverTime how long a lease lives without renewal before another worker takes the shard
 * @param retryBackoff first wait before retrying a batch not wholly ingested (doubles up to {@link #MAX_RETRY_BACKOFF})
 * @param shutdownTimeout how long {@link KclIndexer#close()} waits for KCL's graceful shutdown before stopping it
 */
public record KclConfig(String applicationName, String leaseTable, String streamArn, String workerId,
                        Duration idleTimeBetweenReads, Duration failoverTime, Duration shardSyncInterval,
                        Duration retryBackoff, OnRejected onRejected, Duration shutdownTimeout) {

    public static final Duration IDLE_TIME_BETWEEN_READS = Duration.ofSeconds(1);
    public static final Duration FAILOVER_TIME = Duration.ofSeconds(10);
    public static final Duration SHARD_SYNC_INTERVAL = Duration.ofSeconds(60);
    public static final Duration RETRY_BACKOFF = Duration.ofSeconds(1);
    public static final Duration MAX_RETRY_BACKOFF = Duration.ofSeconds(30);
    public static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(10);

    /** What the worker does with a record the indexer rejects. */
    public enum OnRejected {
        /** Stop on that shard, with an ERROR naming the record; nothing from it on is checkpointed, nor the shard's end. */
        STOP_SHARD,
        /** Append it to {@code $AppendsRejected-0} in the index table (durably, with the reason) and read on. */
        RECORD_AND_CONTINUE
    }

    public KclConfig {
        for (String v : new String[] {applicationName, leaseTable, streamArn, workerId}) {
            if (v == null || v.isBlank()) {
                throw new IllegalArgumentException("applicationName, leaseTable, streamArn and workerId must be non-empty");
            }
        }
        if (!streamArn.startsWith("arn:") || !streamArn.contains(":table/") || !streamArn.contains("/stream/")) {
            throw new IllegalArgumentException("streamArn '" + streamArn + "' is not a DynamoDB stream ARN"
                    + " (arn:aws:dynamodb:<region>:<account>:table/<table>/stream/<label>); give the table's LatestStreamArn");
        }
        if (Stream.of(idleTimeBetweenReads, shardSyncInterval).anyMatch(d -> d == null || d.isNegative())
                || Stream.of(failoverTime, retryBackoff, shutdownTimeout).anyMatch(d -> d == null || d.isNegative() || d.isZero())) {
            throw new IllegalArgumentException("idleTimeBetweenReads and shardSyncInterval must be >= 0; failoverTime,"
                    + " retryBackoff and shutdownTimeout > 0");
        }
        Objects.requireNonNull(onRejected, "onRejected");
    }

    /** Defaults: the lease table named after the application, a worker id from the host and a random suffix. */
    public static Builder builder(String applicationName, String streamArn) {
        return new Builder(applicationName).streamArn(streamArn);
    }

    public static final class Builder {
        private final String applicationName;
        private String streamArn;
        private String leaseTable;
        private String workerId;
        private Duration idleTimeBetweenReads = IDLE_TIME_BETWEEN_READS;
        private Duration failoverTime = FAILOVER_TIME;
        private Duration shardSyncInterval = SHARD_SYNC_INTERVAL;
        private Duration retryBackoff = RETRY_BACKOFF;
        private OnRejected onRejected = OnRejected.STOP_SHARD;
        private Duration shutdownTimeout = SHUTDOWN_TIMEOUT;

        private Builder(String applicationName) {
            this.applicationName = applicationName;
        }

        public Builder streamArn(String v) { this.streamArn = v; return this; }
        /** Null: the application name. */
        public Builder leaseTable(String v) { this.leaseTable = v; return this; }
        /** Null: the host name and a random suffix. */
        public Builder workerId(String v) { this.workerId = v; return this; }
        public Builder idleTimeBetweenReads(Duration v) { this.idleTimeBetweenReads = v; return this; }
        public Builder failoverTime(Duration v) { this.failoverTime = v; return this; }
        public Builder shardSyncInterval(Duration v) { this.shardSyncInterval = v; return this; }
        public Builder retryBackoff(Duration v) { this.retryBackoff = v; return this; }
        public Builder onRejected(OnRejected v) { this.onRejected = v; return this; }
        public Builder shutdownTimeout(Duration v) { this.shutdownTimeout = v; return this; }

        public KclConfig build() {
            return new KclConfig(applicationName, leaseTable != null ? leaseTable : applicationName, streamArn,
                    workerId != null ? workerId : host() + "-" + UUID.randomUUID(), idleTimeBetweenReads, failoverTime,
                    shardSyncInterval, retryBackoff, onRejected, shutdownTimeout);
        }

        private static String host() {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                return "unknown-host"; // the random suffix keeps the id unique
            }
        }
    }
}
