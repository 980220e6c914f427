package io.appendsfeed.indexer.backfill;

import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.SameTableException;
import io.appendsfeed.indexer.SourceSpan;
import io.appendsfeed.indexer.backfill.internal.ExportManifest;
import io.appendsfeed.indexer.backfill.internal.RateLimiter;
import io.appendsfeed.indexer.backfill.internal.SpanIngester;
import io.appendsfeed.indexer.backfill.internal.StreamAssembler;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreItem;
import io.appendsfeed.model.store.StoreScan;
import io.appendsfeed.model.store.StoredEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Indexes a store table from a scan of its items ({@link #run()}) or from a DynamoDB export of it
 * to S3 ({@link #run(ExportFiles)}), for events written before Streams was enabled, or whose 24
 * hours on the stream were lost. Reads Tips and calves in parallel (scan segments, or export
 * files) without their bodies, assembles each stream (its items may come from any segment or
 * file) and ingests its spans in index order. Safe to run again, and alongside a live indexer: the indexer drops what the
 * feed already holds, so every event ends up in the feed once, in order.
 *
 * <p>Order of operations when Streams was enabled late, or a live indexer was down past the 24 h:
 * run the backfill, then start (or restart) the live indexer from the start of the stream
 * ({@code TRIM_HORIZON}). A live indexer that meets a stream the feed does not hold yet starts
 * that stream wherever its first record is, and the backfill cannot put the earlier events in
 * front of them afterwards; a stream the feed already holds is safe either way.
 */
public final class Backfill {

    private static final Logger log = LoggerFactory.getLogger(Backfill.class);
    /** A redelivery window reaching back past any epoch, so that every closed epoch is consulted for duplicates. */
    static final Duration ALL_EPOCHS = Duration.ofDays(365L * 100);
    private static final int QUEUED_STREAMS = 4096;
    private static final int EVENTS_PER_SPAN = 256;

    private final DynamoDbClient dynamo;
    private final IndexerConfig indexerConfig;
    private final BackfillConfig config;

    /**
     * @param dynamo the caller's client, for both tables; the caller closes it
     * @param indexer the index to fill; its redelivery window is widened to every epoch for the
     *                backfill, since the events may be older than any epoch
     * @throws SameTableException when the store table is the index table
     */
    public Backfill(DynamoDbClient dynamo, IndexerConfig indexer, BackfillConfig config) {
        SameTableException.check(config.storeTable(), indexer.indexTable());
        this.dynamo = dynamo;
        this.indexerConfig = indexer.toBuilder().redeliveryWindow(ALL_EPOCHS).build();
        this.config = config;
    }

    /**
     * Runs the backfill to the end, from a parallel scan of the store table.
     *
     * @return the counts, and the streams left out (items not of the store format, gaps)
     * @throws BackfillFailedException when a batch cannot be ingested after the retries; run again
     * @throws RuntimeException from DynamoDB (a table missing, the scan failing after the SDK's
     *         retries); what was ingested stays, and running again is safe
     */
    public BackfillResult run() {
        RateLimiter limiter = new RateLimiter(config.maxItemsPerSecond());
        List<Task> segments = new ArrayList<>();
        StoreScan scan = new StoreScan(dynamo, config.storeTable(), config.segments(), config.pageSize(), false);
        for (int s = 0; s < config.segments(); s++) {
            int segment = s;
            segments.add((sink, scanned, cancelled) -> scan.segment(segment, sink, scanned, cancelled, limiter::acquire));
        }
        return run("scan of " + config.storeTable() + " in " + config.segments() + " segments", estimateItems(), segments);
    }

    /**
     * Runs the backfill to the end from a DynamoDB export of the store table to S3 (full export,
     * DynamoDB JSON), read from S3 or from a copy of its files, {@code segments} files at a time.
     * It costs no read capacity of the table, and goes through the same ingestion as the scan.
     * Streams the export does not hold whole are read again from the table, as after a scan.
     *
     * @throws ExportFormatException when the export is not a full DynamoDB JSON export of this
     *         store table, or a file is not what its manifest says (count, checksum); what was
     *         ingested before stays and is right: every item ingested was read whole
     * @throws BackfillFailedException when a batch cannot be ingested after the retries; run again
     * @throws java.io.UncheckedIOException when a file cannot be read
     */
    public BackfillResult run(ExportFiles export) {
        ExportManifest manifest = ExportManifest.read(export);
        manifest.requireTable(config.storeTable());
        List<Task> files = new ArrayList<>();
        for (ExportManifest.DataFile f : manifest.files()) {
            files.add((sink, scanned, cancelled) -> ExportManifest.readItems(export, f, sink, scanned, cancelled));
        }
        return run("export " + export.describe() + " (" + manifest.files().size() + " files)", manifest.itemCount(), files);
    }

    /**
     * One part of where the items come from (a scan segment, an export file), read from one thread: hands
     * each item to {@code sink} and counts it in {@code scanned}, until done or {@code cancelled}. Whatever
     * the source, what follows is the same: assembly into streams, then ingestion.
     */
    @FunctionalInterface
    private interface Task {
        void read(Consumer<StoreItem> sink, AtomicLong scanned, BooleanSupplier cancelled);
    }

    /** @param estimated how many items to expect, or -1 when unknown */
    private BackfillResult run(String source, long estimated, List<Task> tasks) {
        long started = System.nanoTime();
        Indexer indexer = Indexer.start(dynamo, indexerConfig);
        StreamAssembler assembler = new StreamAssembler();
        SpanIngester ingester = new SpanIngester(indexer, config.maxRetries(), config.retryBackoff());
        AtomicLong scanned = new AtomicLong();
        AtomicLong reserved = new AtomicLong();
        AtomicLong streams = new AtomicLong();
        BlockingQueue<List<Span>> assembled = new ArrayBlockingQueue<>(QUEUED_STREAMS);
        Runnable report = () -> config.progress().accept(new BackfillProgress(scanned.get(), estimated, streams.get(),
                ingester.accepted(), ingester.duplicates(), Duration.ofNanos(System.nanoTime() - started), false));
        ExecutorService scanners = Executors.newFixedThreadPool(config.segments(), r -> daemon(r, "appendsfeed-backfill-read"));
        ScheduledExecutorService reporter = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "appendsfeed-backfill-progress"));
        reporter.scheduleAtFixedRate(report, config.progressInterval().toMillis(), config.progressInterval().toMillis(), TimeUnit.MILLISECONDS);
        log.info("backfill of {} into {} from the {}: ~{} items", config.storeTable(), indexerConfig.indexTable(),
                source, estimated);
        try {
            List<Future<?>> segments = new ArrayList<>();
            for (Task task : tasks) {
                segments.add(scanners.submit(() -> task.read(item -> route(item, assembler, assembled, reserved),
                        scanned, Thread.currentThread()::isInterrupted)));
            }
            boolean scanning = true;
            while (scanning || !assembled.isEmpty()) {
                List<SourceSpan> batch = new ArrayList<>();
                List<Span> stream = assembled.poll(50, TimeUnit.MILLISECONDS);
                while (stream != null) {
                    streams.incrementAndGet();
                    stream.forEach(sp -> batch.add(SpanIngester.source(sp)));
                    stream = batch.size() < config.spansPerBatch() ? assembled.poll() : null;
                }
                if (!batch.isEmpty()) {
                    ingester.ingest(batch);
                }
                scanning = !allDone(segments);
            }
            List<StreamName> incomplete = assembler.incomplete();
            StoreClient store = new StoreClient(dynamo, StoreConfig.builder(config.storeTable()).build());
            for (StreamName s : incomplete) {
                List<Span> spans = readAgain(store, s);
                streams.incrementAndGet();
                ingester.ingest(spans.stream().map(SpanIngester::source).toList());
            }
            BackfillResult result = new BackfillResult(scanned.get(), reserved.get(), streams.get(), ingester.spans(),
                    ingester.accepted(), ingester.duplicates(), incomplete.size(), assembler.rejected(), ingester.gaps(),
                    Duration.ofNanos(System.nanoTime() - started));
            config.progress().accept(new BackfillProgress(result.itemsScanned(), estimated, result.streams(),
                    result.eventsIngested(), result.duplicatesDropped(), result.elapsed(), true));
            assembler.rejected().forEach((key, why) -> log.error("backfill: stream of item {} left out: {}", key, why));
            return result;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("backfill interrupted; run it again to finish", e);
        } finally {
            reporter.shutdownNow();
            scanners.shutdownNow();
        }
    }

    private static void route(StoreItem item, StreamAssembler assembler, BlockingQueue<List<Span>> out, AtomicLong reserved) {
        if (item instanceof StoreItem.Tip || item instanceof StoreItem.Calf) {
            List<Span> spans = item instanceof StoreItem.Tip t ? assembler.add(t) : assembler.add((StoreItem.Calf) item);
            if (spans != null) {
                try {
                    out.put(spans); // waits while the indexer is behind: memory stays bounded
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("backfill scan interrupted", x);
                }
            }
        } else if (item instanceof StoreItem.Malformed r) {
            assembler.reject(r);
        } else {
            reserved.incrementAndGet();
        }
    }

    /** @throws RuntimeException the first failure of a scan segment */
    private static boolean allDone(List<Future<?>> segments) throws InterruptedException {
        boolean all = true;
        for (Future<?> f : segments) {
            if (!f.isDone()) {
                all = false;
            } else {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                }
            }
        }
        return all;
    }

    /** A stream the scan did not see whole, read with a query (types only), in spans of up to 256 events. */
    private List<Span> readAgain(StoreClient store, StreamName stream) {
        List<Span> out = new ArrayList<>();
        List<String> types = new ArrayList<>();
        long first = -1;
        for (StoredEvent e : (Iterable<StoredEvent>) store.read(stream, Read.forward(0).typesOnly().strongly())::iterator) {
            if (first < 0) {
                first = e.index();
                if (first > 0) {
                    log.warn("backfill: {} starts at index {}: its earlier events are no longer stored", stream, first);
                }
            }
            types.add(e.type());
            if (types.size() == EVENTS_PER_SPAN) {
                out.add(new Span(stream, first, types));
                first += types.size();
                types = new ArrayList<>();
            }
        }
        if (!types.isEmpty()) {
            out.add(new Span(stream, first, types));
        }
        return out;
    }

    private long estimateItems() {
        try {
            Long n = dynamo.describeTable(b -> b.tableName(config.storeTable())).table().itemCount();
            return n == null ? -1 : n;
        } catch (RuntimeException e) {
            log.warn("backfill: no item count for {} ({}); progress shows no percentage", config.storeTable(), e.toString());
            return -1;
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
