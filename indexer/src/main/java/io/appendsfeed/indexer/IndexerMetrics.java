package io.appendsfeed.indexer;

import io.appendsfeed.model.metrics.Metric;
import io.appendsfeed.model.metrics.Metric.Unit;
import io.appendsfeed.model.metrics.Sample;
import java.time.Instant;
import java.util.List;

/**
 * What the indexer reports, once per batch, whichever source delivered it. Dimensions: {@value #FEED} (the
 * index table) and, from the poller and the KCL worker, {@value #SHARD}. The README's table lists the same.
 */
public final class IndexerMetrics {

    public static final String FEED = "feed";
    public static final String SHARD = "shard";

    public static final Metric RECORDS = Metric.counter("indexer.records", Unit.COUNT,
            "Streams records handed to the indexer (spans, for a backfill); a redelivered batch counts again");
    public static final Metric SKIPPED = Metric.counter("indexer.records.skipped", Unit.COUNT,
            "records with nothing to index: REMOVE, calves, unfold-only writes, $ streams");
    public static final Metric REJECTED = Metric.counter("indexer.records.rejected", Unit.COUNT,
            "records not of the store format; the batch stopped before the first of them");
    public static final Metric SPANS = Metric.counter("indexer.spans", Unit.COUNT,
            "spans (one stream's newly appended events) the records carried");
    public static final Metric ACCEPTED = Metric.counter("indexer.events.accepted", Unit.COUNT,
            "stream events written to the feed");
    public static final Metric DUPLICATES = Metric.counter("indexer.events.duplicate", Unit.COUNT,
            "stream events dropped because the feed already held them (redeliveries, overlaps)");
    public static final Metric HEALED = Metric.counter("indexer.events.healed", Unit.COUNT,
            "events taken from a Tip to fill what would have been a gap");
    public static final Metric CONFLICTS = Metric.counter("indexer.conflicts", Unit.COUNT,
            "conditional epoch writes lost to another writer, each caught up and retried");
    public static final Metric INCOMPLETE = Metric.counter("indexer.batches.incomplete", Unit.COUNT,
            "batches not wholly ingested (rejected record, gap, DynamoDB error): the source delivers them again from the first record not in");
    public static final Metric EPOCHS_CLOSED = Metric.counter("indexer.epochs.closed", Unit.COUNT,
            "epochs closed by the batch");
    public static final Metric WCU = Metric.counter("indexer.wcu", Unit.CAPACITY_UNITS,
            "write capacity units the batch consumed in the index table");
    public static final Metric RCU = Metric.counter("indexer.rcu", Unit.CAPACITY_UNITS,
            "read capacity units the batch consumed in the index table");
    public static final Metric BATCH_TIME = Metric.timer("indexer.batch.time",
            "time to ingest one batch, from parsing to the outcome");
    public static final Metric RECORD_AGE = Metric.gauge("indexer.record.age", Unit.MILLISECONDS,
            "age of the batch's newest record (ApproximateCreationDateTime) when ingested: how far the feed is behind the table, Lambda's IteratorAge");

    /** Every metric above, in the README's order. */
    public static final List<Metric> ALL = List.of(RECORDS, SKIPPED, REJECTED, SPANS, ACCEPTED, DUPLICATES, HEALED,
            CONFLICTS, INCOMPLETE, EPOCHS_CLOSED, WCU, RCU, BATCH_TIME, RECORD_AGE);

    private IndexerMetrics() {}

    /** The figures of one batch; {@code shard} null when the source does not say (Lambda, backfill). */
    public static Sample sample(BatchOutcome o, String feed, String shard, Instant now) {
        Sample.Builder b = Sample.at(now).dimension(FEED, feed);
        if (shard != null) {
            b.dimension(SHARD, shard);
        }
        b.value(RECORDS, o.records()).value(SKIPPED, o.skipped()).value(REJECTED, o.rejected() == null ? 0 : 1)
                .value(SPANS, o.spans()).value(ACCEPTED, o.acceptedEvents()).value(DUPLICATES, o.duplicateEvents())
                .value(HEALED, o.healedEvents()).value(CONFLICTS, o.conflicts()).value(INCOMPLETE, o.complete() ? 0 : 1)
                .value(EPOCHS_CLOSED, o.epochsClosed()).value(WCU, o.capacity().writeUnits())
                .value(RCU, o.capacity().readUnits()).value(BATCH_TIME, o.elapsed().toNanos() / 1e6);
        o.newestRecordAge(now).ifPresent(age -> b.value(RECORD_AGE, age.toMillis()));
        return b.build();
    }
}
