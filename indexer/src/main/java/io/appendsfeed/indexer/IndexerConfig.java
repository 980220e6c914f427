package io.appendsfeed.indexer;

import io.appendsfeed.model.feed.AppendsEpoch.EpochLimits;
import io.appendsfeed.model.metrics.Metrics;
import io.appendsfeed.model.store.CapacityMeter;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Configuration of an {@link Indexer}; build with {@link #builder(String)}.
 *
 * @param indexTable the index table (store format, Streams off)
 * @param partitions partitions of the feed, recorded in {@code $AppendsIndex-0} when the index is created and
 *                   never changed; {@link #PARTITIONS_AS_RECORDED} (the default) takes the index's count
 * @param limits when an epoch closes
 * @param allowGaps let a span that starts past its stream's next index through with a WARN, instead of a {@link FeedGapException}
 * @param maxConflictRetries conditional-write conflicts tolerated per partition per batch before giving up
 * @param redeliveryWindow how long a source may redeliver a record (Streams keeps records 24 hours); bounds the
 *                         look-back over closed epochs
 * @param clockSkew allowed between DynamoDB's clock (a record's {@code ApproximateCreationDateTime}) and the
 *                  indexers' clocks that stamp an epoch's close; writers' clocks play no part
 * @param storeTable the store table the records come from, or null; refused as the index table
 * @param storePredatesFeed the store holds events from before the feed began (indexed by a backfill): a stream the
 *                          feed never held is taken as it starts, not healed or refused as a gap
 * @param conflictBackoff after a conflict, a write waits a random time up to this, so that racing writers spread out
 */
public record IndexerConfig(String indexTable, int partitions, EpochLimits limits, boolean allowGaps,
                            int maxConflictRetries, Duration redeliveryWindow, Duration clockSkew, Clock clock,
                            CapacityMeter meter, String storeTable, boolean storePredatesFeed, Metrics metrics,
                            Duration conflictBackoff) {

    /** {@code partitions}: whatever the index records (1 when the indexer creates the index). */
    public static final int PARTITIONS_AS_RECORDED = 0;
    public static final long DEFAULT_CONFLICT_BACKOFF_MILLIS = 4;
    public static final Duration DEFAULT_CONFLICT_BACKOFF = Duration.ofMillis(DEFAULT_CONFLICT_BACKOFF_MILLIS);
    public static final Duration MAX_CONFLICT_BACKOFF = Duration.ofSeconds(1);

    public IndexerConfig {
        if (indexTable == null || indexTable.isBlank()) {
            throw new IllegalArgumentException("indexTable must be non-empty");
        }
        if (partitions < 0) {
            throw new IllegalArgumentException("partitions must be >= 1, or " + PARTITIONS_AS_RECORDED + " for as the index records, was "
                    + partitions);
        }
        if (maxConflictRetries < 0) {
            throw new IllegalArgumentException("maxConflictRetries must be >= 0, was " + maxConflictRetries);
        }
        for (Duration d : new Duration[] {redeliveryWindow, clockSkew, conflictBackoff}) {
            if (d == null || d.isNegative()) {
                throw new IllegalArgumentException("redeliveryWindow, clockSkew and conflictBackoff must be >= 0, were "
                        + redeliveryWindow + ", " + clockSkew + ", " + conflictBackoff);
            }
        }
        if (conflictBackoff.compareTo(MAX_CONFLICT_BACKOFF) > 0) {
            throw new IllegalArgumentException("conflictBackoff must be from 0 to " + MAX_CONFLICT_BACKOFF.toMillis() + " ms, was "
                    + conflictBackoff);
        }
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(meter, "meter");
        Objects.requireNonNull(metrics, "metrics");
        storeTable = storeTable == null || storeTable.isBlank() ? null : storeTable;
        SameTableException.check(storeTable, indexTable);
    }

    public static Builder builder(String indexTable) {
        return new Builder(indexTable);
    }

    public Builder toBuilder() {
        return new Builder(indexTable).partitions(partitions).limits(limits).allowGaps(allowGaps)
                .maxConflictRetries(maxConflictRetries).redeliveryWindow(redeliveryWindow).clockSkew(clockSkew).clock(clock).meter(meter)
                .storeTable(storeTable).storePredatesFeed(storePredatesFeed).metrics(metrics)
                .conflictBackoff(conflictBackoff);
    }

    public static final class Builder {
        private final String indexTable;
        private int partitions = PARTITIONS_AS_RECORDED;
        private EpochLimits limits = EpochLimits.DEFAULT;
        private boolean allowGaps = false;
        private int maxConflictRetries = 100;
        private Duration redeliveryWindow = Duration.ofHours(24); // DynamoDB Streams' retention
        private Duration clockSkew = Duration.ofMinutes(5);
        private Clock clock = Clock.systemUTC();
        private CapacityMeter meter = CapacityMeter.NONE;
        private String storeTable;
        private boolean storePredatesFeed;
        private Metrics metrics = Metrics.NONE;
        private Duration conflictBackoff = DEFAULT_CONFLICT_BACKOFF;

        private Builder(String indexTable) {
            this.indexTable = indexTable;
        }

        public Builder partitions(int v) { this.partitions = v; return this; }
        public Builder limits(EpochLimits v) { this.limits = v; return this; }
        public Builder allowGaps(boolean v) { this.allowGaps = v; return this; }
        public Builder maxConflictRetries(int v) { this.maxConflictRetries = v; return this; }
        public Builder redeliveryWindow(Duration v) { this.redeliveryWindow = v; return this; }
        public Builder clockSkew(Duration v) { this.clockSkew = v; return this; }
        public Builder clock(Clock v) { this.clock = v; return this; }
        public Builder meter(CapacityMeter v) { this.meter = v; return this; }
        public Builder storeTable(String v) { this.storeTable = v; return this; }
        public Builder storePredatesFeed(boolean v) { this.storePredatesFeed = v; return this; }
        public Builder metrics(Metrics v) { this.metrics = v; return this; }
        public Builder conflictBackoff(Duration v) { this.conflictBackoff = v; return this; }

        public IndexerConfig build() {
            return new IndexerConfig(indexTable, partitions, limits, allowGaps, maxConflictRetries,
                    redeliveryWindow, clockSkew, clock, meter, storeTable, storePredatesFeed, metrics, conflictBackoff);
        }
    }
}
