package io.appendsfeed.indexer;

import io.appendsfeed.indexer.BatchOutcome.PartitionOutcome;
import io.appendsfeed.indexer.BatchOutcome.RejectedRecord;
import io.appendsfeed.indexer.internal.EpochIngester;
import io.appendsfeed.indexer.internal.KnownIndex;
import io.appendsfeed.model.Decider;
import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.feed.AppendsIndex;
import io.appendsfeed.model.feed.AppendsIndex.IndexState;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Partitioner;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.metrics.Metrics;
import io.appendsfeed.model.store.CapacityMeter.Capacity;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreItem;
import io.appendsfeed.model.store.StoreItems;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.slf4j.event.Level;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The indexer's core, shared by every source (Lambda, KCL, the poller, a backfill): parses records into
 * spans ({@link #parse}), routes each to its partition, ingests each partition's spans into its active
 * epoch exactly once, and says up to where the batch is durably in. Thread-safe; batches for one partition
 * are ingested one at a time, the partitions of one batch at the same time.
 */
public final class Indexer {

    private static final Logger log = LoggerFactory.getLogger(Indexer.class);

    /** The index records another partition count than the configured one: the count never changes (streams would move). */
    public static final class PartitionCountMismatchException extends RuntimeException {
        private final String indexTable;
        private final int recorded;
        private final int configured;

        public PartitionCountMismatchException(String indexTable, int recorded, int configured) {
            super("index table '" + indexTable + "' was created with " + recorded + " partition(s) but this indexer is configured"
                    + " with " + configured + "; the count never changes once recorded: configure " + recorded
                    + " or leave the partitions unset (the index's count is then taken), or use a new index table for a different count");
            this.indexTable = indexTable;
            this.recorded = recorded;
            this.configured = configured;
        }

        public String indexTable() { return indexTable; }
        public int recorded() { return recorded; }
        public int configured() { return configured; }
    }

    /** Runs the other partitions of a batch while the calling thread runs one; idle threads end after a minute. */
    private static final ExecutorService PARTITIONS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "appendsfeed-partition");
        t.setDaemon(true);
        return t;
    });

    private final DynamoDbClient dynamo;
    private final IndexerConfig config;
    private final StoreClient index;
    private final KnownIndex knownIndex;
    private final Map<PartitionId, EpochIngester> ingesters = new ConcurrentHashMap<>();

    private Indexer(DynamoDbClient dynamo, IndexerConfig config, StoreClient index, KnownIndex knownIndex) {
        this.dynamo = dynamo;
        this.config = config;
        this.index = index;
        this.knownIndex = knownIndex;
    }

    /**
     * Opens the index in {@code config.indexTable()}, creating {@code $AppendsIndex-0} with the configured partition
     * count (1 when {@link IndexerConfig#PARTITIONS_AS_RECORDED}) if it does not exist yet.
     *
     * @param dynamo the caller's client; the caller closes it
     * @throws PartitionCountMismatchException when the index records another partition count than an explicit one
     * @throws RuntimeException from DynamoDB, e.g. when the table does not exist
     */
    public static Indexer start(DynamoDbClient dynamo, IndexerConfig config) {
        StoreClient index = new StoreClient(dynamo, StoreConfig.builder(config.indexTable())
                .reservedStreams(true).meter(config.meter()).clock(config.clock()).build());
        Decider.Loaded<IndexState> loaded = AppendsIndex.load(index, true);
        boolean asRecorded = config.partitions() == IndexerConfig.PARTITIONS_AS_RECORDED;
        if (!loaded.state().isCreated()) {
            loaded = AppendsIndex.create(index, asRecorded ? 1 : config.partitions());
            log.info("index {}: created with {} partition(s)", config.indexTable(), loaded.state().partitions());
        }
        int recorded = loaded.state().partitions();
        if (asRecorded) {
            config = config.toBuilder().partitions(recorded).build();
        } else if (recorded != config.partitions()) {
            throw new PartitionCountMismatchException(config.indexTable(), recorded, config.partitions());
        }
        return new Indexer(dynamo, config, index, new KnownIndex(loaded));
    }

    public IndexerConfig config() {
        return config;
    }

    /**
     * Ingests one batch of Streams records, in the order the source delivered them.
     *
     * @return the outcome; never throws for a bad record, a gap or a DynamoDB failure: those stop the
     *         batch at {@link BatchOutcome#firstNotIngested()} and are named in the outcome
     */
    public BatchOutcome ingest(List<ChangeRecord> records) {
        return ingest(records, null);
    }

    /** As {@link #ingest(List)}, for records of one shard (null: not known), which the log line, MDC and metrics name. */
    public BatchOutcome ingest(List<ChangeRecord> records, String shard) {
        return ingest(records, shard, false);
    }

    /**
     * As {@link #ingest(List, String)}, saying whether more records wait now (a full Lambda batch): the epochs' Tips
     * may then lag their calves up to a second; said wrongly, until the next batch or {@link #moveTips()}.
     */
    public BatchOutcome ingest(List<ChangeRecord> records, String shard, boolean moreWaiting) {
        try (MDC.MDCCloseable ignored = shard == null ? null : MDC.putCloseable(IndexerMetrics.SHARD, shard)) {
            long started = System.nanoTime();
            List<SourceSpan> spans = new ArrayList<>();
            Instant newest = null;
            int skipped = 0;
            RejectedRecord rejected = null;
            for (ChangeRecord r : records) {
                if (r.approximateCreation() != null && (newest == null || r.approximateCreation().isAfter(newest))) {
                    newest = r.approximateCreation();
                }
                Parsed p = parse(r);
                log.debug("{}: {}", r, p);
                if (p instanceof Parsed.Spanned s) {
                    spans.add(s.span());
                } else if (p instanceof Parsed.Skipped) {
                    skipped++;
                } else if (p instanceof Parsed.Rejected x) {
                    rejected = x.rejected();
                    log.error("{}; the batch stops before it", rejected);
                    break;
                }
            }
            return run(records.size(), skipped, spans, rejected, newest, shard, started, moreWaiting && rejected == null);
        }
    }

    /**
     * Moves each partition's epoch Tips a full last batch left behind to their calves' end as read now: the active
     * epoch's, then earlier ones' while behind (a strongly consistent query each). The Lambda's schedule calls it.
     *
     * @throws RuntimeException from DynamoDB, after the partitions before it were moved
     */
    public void moveTips() {
        IndexState state = AppendsIndex.read(index);
        for (int p = 0; p < state.partitions(); p++) {
            PartitionId partition = PartitionId.of(p);
            EpochId active = state.activeEpoch(partition);
            index.moveTipToCalves(AppendsEpoch.stream(partition, active));
            for (int e = active.value() - 1; e >= 0 && index.moveTipToCalves(AppendsEpoch.stream(partition, EpochId.of(e))); e--) {
                log.info("partition {} epoch {}: its Tip was behind its calves, now moved", partition, e);
            }
        }
    }

    /** As {@link #ingestSpans(List)}, saying whether the source has more waiting ({@link #ingest(List, String, boolean)}). */
    public BatchOutcome ingestSpans(List<SourceSpan> spans, boolean moreWaiting) {
        return run(spans.size(), 0, spans, null, null, null, System.nanoTime(), moreWaiting);
    }

    /** What {@link #parse} made of one record. */
    public sealed interface Parsed {

        /** Why a record carries nothing to index. */
        enum SkipReason { REMOVE, CALF, NO_NEW_EVENTS, RESERVED_STREAM }

        /** A Tip write that appended events. */
        record Spanned(SourceSpan span) implements Parsed {}

        /** A record of the store format with nothing to index. */
        record Skipped(SkipReason reason) implements Parsed {}

        /** A record that is not of the store format. */
        record Rejected(RejectedRecord rejected) implements Parsed {}
    }

    /**
     * What a Streams record of a store table carries (DESIGN.md, "The indexer", step 2): an INSERT or MODIFY
     * of a Tip with {@code a > 0} gives the span {@code (p, n - a, last a of c)}; REMOVE, calves, {@code a = 0}
     * and {@code $} streams are skipped; anything else is rejected with what is wrong. Pure.
     */
    public static Parsed parse(ChangeRecord r) {
        String name = r.eventName();
        if ("REMOVE".equals(name)) {
            return new Parsed.Skipped(Parsed.SkipReason.REMOVE);
        }
        if (!"INSERT".equals(name) && !"MODIFY".equals(name)) {
            return rejected(r, "event name '" + name + "' is none of INSERT, MODIFY, REMOVE");
        }
        StoreItem item = StoreItems.parseImage(r.keys(), r.newImage(), r.eventTypes());
        if (item instanceof StoreItem.Tip t) {
            List<String> types = t.types();
            int a = (int) t.appended();
            Span span;
            try {
                span = new Span(t.stream(), t.next() - a, types.subList(types.size() - a, types.size()));
            } catch (IllegalArgumentException badType) { // a source's types read as they are used: see ChangeRecord.eventTypes
                return rejected(r, badType.getMessage());
            }
            // the Tip's older types are read only to heal a gap: built when asked for
            return new Parsed.Spanned(new SourceSpan(span, () -> new Span(t.stream(), t.first(), types),
                    r.approximateCreation(), r.sequenceNumber()));
        } else if (item instanceof StoreItem.Unfolded) {
            return new Parsed.Skipped(Parsed.SkipReason.NO_NEW_EVENTS);
        } else if (item instanceof StoreItem.Calf) {
            return new Parsed.Skipped(Parsed.SkipReason.CALF);
        } else if (item instanceof StoreItem.Reserved) {
            return new Parsed.Skipped(Parsed.SkipReason.RESERVED_STREAM);
        }
        StoreItem.Malformed m = (StoreItem.Malformed) item;
        if (m.problem().equals(StoreItems.NO_IMAGE)) {
            return rejected(r, m.problem() + " (stream view type " + r.viewType()
                    + "); enable Streams on the store table with NEW_IMAGE or NEW_AND_OLD_IMAGES");
        }
        return rejected(r, m.problem());
    }

    private static Parsed rejected(ChangeRecord r, String reason) {
        return new Parsed.Rejected(new RejectedRecord(r.sequenceNumber(), r.describeKey(), reason));
    }

    /** Ingests spans read by other means (a backfill), in order; the outcome's positions are the spans' own. */
    public BatchOutcome ingestSpans(List<SourceSpan> spans) {
        return ingestSpans(spans, false);
    }

    /**
     * Ingests the spans of one batch, each partition's in order, the partitions at the same time; the
     * batch is in up to the first span of a failed partition, or up to the rejected record that ended it.
     */
    private BatchOutcome run(int records, int skipped, List<SourceSpan> spans, RejectedRecord rejected, Instant newest,
                             String shard, long started, boolean moreWaiting) {
        Map<PartitionId, List<Integer>> byPartition = new TreeMap<>();
        for (int k = 0; k < spans.size(); k++) {
            byPartition.computeIfAbsent(Partitioner.route(spans.get(k).span().stream(), config.partitions()),
                    p -> new ArrayList<>()).add(k);
        }
        List<Map.Entry<PartitionId, List<Integer>>> work = new ArrayList<>(byPartition.entrySet());
        List<CompletableFuture<PartitionOutcome>> pending = new ArrayList<>(work.size());
        for (int k = 0; k < work.size(); k++) {
            EpochIngester ingester = ingesters.computeIfAbsent(work.get(k).getKey(), p -> new EpochIngester(p, dynamo, knownIndex, config));
            List<SourceSpan> mine = work.get(k).getValue().stream().map(spans::get).toList();
            pending.add(k == work.size() - 1 ? CompletableFuture.completedFuture(ingester.ingest(mine, moreWaiting))
                    : CompletableFuture.supplyAsync(withMdc(() -> ingester.ingest(mine, moreWaiting)), PARTITIONS));
        }
        if (!moreWaiting) { // a partition an earlier batch left behind, which this one did not touch
            ingesters.forEach((p, ingester) -> {
                if (!byPartition.containsKey(p)) {
                    try {
                        ingester.moveTip();
                    } catch (RuntimeException e) {
                        log.warn("partition {}: its epoch Tip is behind its calves and could not be moved ({}); moveTips moves it", p, e.toString());
                    }
                }
            });
        }
        List<PartitionOutcome> outcomes = new ArrayList<>();
        Capacity capacity = Capacity.NONE;
        int firstFailed = Integer.MAX_VALUE;
        for (int k = 0; k < work.size(); k++) {
            PartitionOutcome o = pending.get(k).join(); // EpochIngester.ingest never throws: failures are outcomes
            outcomes.add(o);
            capacity = capacity == Capacity.NONE ? o.capacity() : capacity.plus(o.capacity()); // NONE: nobody asked
            if (!o.ok() && o.settled() < o.spans()) { // a failure after every span settled (recording the next epoch) loses nothing
                firstFailed = Math.min(firstFailed, work.get(k).getValue().get(o.settled()));
            }
        }
        String first = firstFailed < spans.size() ? spans.get(firstFailed).position()
                : rejected == null ? null : rejected.sequenceNumber();
        BatchOutcome outcome = new BatchOutcome(records, skipped, outcomes, rejected, first, capacity,
                Duration.ofNanos(System.nanoTime() - started), newest);
        Instant now = config.clock().instant();
        log(outcome, shard, now);
        report(outcome, shard, now);
        return outcome;
    }

    /** {@code work} with the calling thread's MDC (the shard, the request id), for another thread. */
    private static <T> Supplier<T> withMdc(Supplier<T> work) {
        Map<String, String> mdc = MDC.getCopyOfContextMap();
        return () -> {
            if (mdc != null) {
                MDC.setContextMap(mdc);
            }
            try {
                return work.get();
            } finally {
                MDC.clear();
            }
        };
    }

    /** The batch's figures to the metrics: the one place the indexer reports them, whichever source called. */
    private void report(BatchOutcome outcome, String shard, Instant now) {
        Metrics metrics = config.metrics();
        if (!metrics.enabled()) {
            return;
        }
        try {
            metrics.record(IndexerMetrics.sample(outcome, config.indexTable(), shard, now));
            metrics.flush();
        } catch (RuntimeException e) { // the batch is in the feed whatever the metrics do: failing it would only redeliver it
            log.warn("metrics {} failed to take the batch's figures: {}", metrics, e.toString());
        }
    }

    private static void log(BatchOutcome o, String shard, Instant now) {
        StringBuilder sb = new StringBuilder();
        for (PartitionOutcome p : o.partitions()) {
            sb.append(" | p").append(p.partition()).append(" e").append(p.epoch()).append(": ").append(p.spans()).append(" spans, ")
                    .append(p.acceptedEvents()).append(" accepted, ").append(p.duplicateEvents()).append(" duplicates, ")
                    .append(p.epochsClosed()).append(" closed").append(p.conflicts() > 0 ? ", " + p.conflicts() + " conflicts" : "")
                    .append(p.ok() ? "" : ", FAILED: " + p.error().getMessage());
        }
        sb.append(" | ").append(o.elapsed().toMillis()).append(" ms");
        if (o.capacity() != Capacity.NONE) {
            sb.append(", ").append(o.capacity().writeUnits()).append(" WCU, ").append(o.capacity().readUnits()).append(" RCU");
        }
        o.newestRecordAge(now).ifPresent(age -> sb.append(", newest record ").append(age.toMillis()).append(" ms old"));
        sb.append(o.complete() ? "" : " | not ingested from " + o.firstNotIngested());
        log.atLevel(o.complete() ? Level.INFO : Level.WARN).log("batch{}: {} records, {} skipped, {} partitions{}",
                shard == null ? "" : " from " + shard, o.records(), o.skipped(), o.partitions().size(), sb);
    }
}
