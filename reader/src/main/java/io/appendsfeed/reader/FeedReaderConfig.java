package io.appendsfeed.reader;

import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.metrics.Metrics;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * Configuration of a {@link FeedReader}; build with {@link #builder(String, String, String)}.
 *
 * @param group consumer group: the name checkpoints, leases and parked streams are kept under
 * @param indexTable the index table (epochs, index, checkpoints)
 * @param storeTable the event-store table, read for bodies and for replaying released streams
 * @param partitions partitions to read; empty means every partition the index records
 * @param leases take a lease on each partition so that one instance of the group reads it at a
 *               time (default); off, this instance reads {@code partitions} unconditionally
 * @param owner this instance's name in leases and checkpoints
 * @param start where to start (default: the stored checkpoint, else the beginning)
 * @param pollInterval the longest wait at the tail before reading again: right after new events the reader
 *                     reads again within 25 ms, doubling the wait while it finds none, up to this
 * @param maxReadEvents epoch events per read of the index, about: a read also hands over the rest of
 *                      what its {@code Query} pages brought (paid for), at most one page (1 MB) more;
 *                      a partition reads ahead of what is handled by up to ten times this
 * @param maxConcurrentStreams handler calls (with their body loads) in parallel
 * @param maxBatchEvents most events per handler call
 * @param loadBodies load event bodies from the store table (eventually consistent reads)
 * @param categories only streams of these categories; empty means all
 * @param eventTypes only events of these types; empty means all
 * @param retryBackoffMin first wait after a failure (handler, read, throttling)
 * @param retryBackoffMax longest wait between retries
 * @param parkAfterAttempts a stream whose handler failed this many times in a row is parked
 * @param commitInterval how often progress is committed (also on close)
 * @param leaseTimeout a lease not renewed for this long may be taken over
 * @param parkedPollInterval how often released streams are looked for
 * @param lagLogInterval how often lag is logged at INFO, and sampled for {@code metrics}
 * @param shutdownTimeout how long {@link FeedReader#close()} waits for running handlers
 * @param clock for timestamps and lag
 * @param metrics where the reader's figures go ({@link ReaderMetrics}): handler calls as they happen,
 *                lag, parked streams and capacity every {@code lagLogInterval}; {@link Metrics#NONE}
 *                (the default) measures nothing
 */
public record FeedReaderConfig(String group, String indexTable, String storeTable, Set<PartitionId> partitions,
                               boolean leases, String owner, StartPosition start, Duration pollInterval,
                               int maxReadEvents, int maxConcurrentStreams,
                               int maxBatchEvents, boolean loadBodies, Set<String> categories, Set<String> eventTypes,
                               Duration retryBackoffMin, Duration retryBackoffMax, int parkAfterAttempts,
                               Duration commitInterval, Duration leaseTimeout,
                               Duration parkedPollInterval, Duration lagLogInterval, Duration shutdownTimeout,
                               Clock clock, Metrics metrics) {

    /** Default wait at the tail between reads. */
    public static final Duration POLL_INTERVAL = Duration.ofMillis(500);

    public FeedReaderConfig {
        FeedStreams.checkGroup(group);
        requireName(indexTable, "indexTable");
        requireName(storeTable, "storeTable");
        partitions = Set.copyOf(Objects.requireNonNull(partitions, "partitions"));
        Objects.requireNonNull(start, "start");
        requireName(owner, "owner");
        categories = Set.copyOf(Objects.requireNonNull(categories, "categories"));
        eventTypes = Set.copyOf(Objects.requireNonNull(eventTypes, "eventTypes"));
        positive(pollInterval, "pollInterval");
        positive(retryBackoffMin, "retryBackoffMin");
        positive(retryBackoffMax, "retryBackoffMax");
        positive(commitInterval, "commitInterval");
        positive(leaseTimeout, "leaseTimeout");
        positive(parkedPollInterval, "parkedPollInterval");
        positive(lagLogInterval, "lagLogInterval");
        positive(shutdownTimeout, "shutdownTimeout");
        atLeast(maxReadEvents, 1, "maxReadEvents");
        atLeast(maxConcurrentStreams, 1, "maxConcurrentStreams");
        atLeast(maxBatchEvents, 1, "maxBatchEvents");
        atLeast(parkAfterAttempts, 1, "parkAfterAttempts");
        if (retryBackoffMax.compareTo(retryBackoffMin) < 0) {
            throw new IllegalArgumentException("retryBackoffMax (" + retryBackoffMax + ") must be >= retryBackoffMin ("
                    + retryBackoffMin + ")");
        }
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(metrics, "metrics");
    }

    public static Builder builder(String group, String indexTable, String storeTable) {
        return new Builder(group, indexTable, storeTable);
    }

    /** A builder holding this configuration, to derive another from it. */
    public Builder toBuilder() {
        return new Builder(group, indexTable, storeTable).partitions(partitions).leases(leases).owner(owner).start(start)
                .pollInterval(pollInterval).maxReadEvents(maxReadEvents).maxConcurrentStreams(maxConcurrentStreams)
                .maxBatchEvents(maxBatchEvents).loadBodies(loadBodies).categories(categories).eventTypes(eventTypes).retryBackoff(retryBackoffMin, retryBackoffMax)
                .parkAfterAttempts(parkAfterAttempts).commitInterval(commitInterval)
                .leaseTimeout(leaseTimeout).parkedPollInterval(parkedPollInterval).lagLogInterval(lagLogInterval)
                .shutdownTimeout(shutdownTimeout).clock(clock).metrics(metrics);
    }

    private static void requireName(String v, String what) {
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(what + " must be non-empty");
        }
    }

    private static void positive(Duration d, String what) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be a positive duration, was " + d);
        }
    }

    private static void atLeast(int v, int min, String what) {
        if (v < min) {
            throw new IllegalArgumentException(what + " must be >= " + min + ", was " + v);
        }
    }

    /** Builder holding the defaults. */
    public static final class Builder {
        private final String group;
        private final String indexTable;
        private final String storeTable;
        private Set<PartitionId> partitions = Set.of();
        private boolean leases = true;
        private String owner = "reader-" + UUID.randomUUID();
        private StartPosition start = StartPosition.stored();
        private Duration pollInterval = POLL_INTERVAL;
        private int maxReadEvents = 100;
        private int maxConcurrentStreams = 8;
        private int maxBatchEvents = 500;
        private boolean loadBodies = true;
        private Set<String> categories = Set.of();
        private Set<String> eventTypes = Set.of();
        private Duration retryBackoffMin = Duration.ofMillis(200);
        private Duration retryBackoffMax = Duration.ofSeconds(30);
        private int parkAfterAttempts = 10;
        private Duration commitInterval = Duration.ofSeconds(5);
        private Duration leaseTimeout = Duration.ofSeconds(30);
        private Duration parkedPollInterval = Duration.ofSeconds(10);
        private Duration lagLogInterval = Duration.ofSeconds(60);
        private Duration shutdownTimeout = Duration.ofSeconds(30);
        private Clock clock = Clock.systemUTC();
        private Metrics metrics = Metrics.NONE;

        private Builder(String group, String indexTable, String storeTable) {
            this.group = group;
            this.indexTable = indexTable;
            this.storeTable = storeTable;
        }

        public Builder partitions(Set<PartitionId> v) { this.partitions = v; return this; }
        public Builder leases(boolean v) { this.leases = v; return this; }
        public Builder owner(String v) { this.owner = v; return this; }
        public Builder start(StartPosition v) { this.start = v; return this; }
        public Builder pollInterval(Duration v) { this.pollInterval = v; return this; }
        public Builder maxReadEvents(int v) { this.maxReadEvents = v; return this; }
        public Builder maxConcurrentStreams(int v) { this.maxConcurrentStreams = v; return this; }
        public Builder maxBatchEvents(int v) { this.maxBatchEvents = v; return this; }
        public Builder loadBodies(boolean v) { this.loadBodies = v; return this; }
        public Builder categories(Set<String> v) { this.categories = v; return this; }
        public Builder eventTypes(Set<String> v) { this.eventTypes = v; return this; }
        public Builder retryBackoff(Duration min, Duration max) { this.retryBackoffMin = min; this.retryBackoffMax = max; return this; }
        public Builder parkAfterAttempts(int v) { this.parkAfterAttempts = v; return this; }
        public Builder commitInterval(Duration v) { this.commitInterval = v; return this; }
        public Builder leaseTimeout(Duration v) { this.leaseTimeout = v; return this; }
        public Builder parkedPollInterval(Duration v) { this.parkedPollInterval = v; return this; }
        public Builder lagLogInterval(Duration v) { this.lagLogInterval = v; return this; }
        public Builder shutdownTimeout(Duration v) { this.shutdownTimeout = v; return this; }
        public Builder clock(Clock v) { this.clock = v; return this; }
        public Builder metrics(Metrics v) { this.metrics = v; return this; }

        public FeedReaderConfig build() {
            return new FeedReaderConfig(group, indexTable, storeTable, partitions, leases, owner, start, pollInterval,
                    maxReadEvents, maxConcurrentStreams, maxBatchEvents, loadBodies, categories,
                    eventTypes, retryBackoffMin, retryBackoffMax, parkAfterAttempts, commitInterval,
                    leaseTimeout, parkedPollInterval, lagLogInterval, shutdownTimeout, clock, metrics);
        }
    }
}
