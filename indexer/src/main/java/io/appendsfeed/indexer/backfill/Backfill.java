package io.appendsfeed.indexer.backfill;

import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.indexer.FeedGapException;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.SameTableException;
import io.appendsfeed.indexer.SourceSpan;
import io.appendsfeed.indexer.backfill.internal.ExportManifest;
import io.appendsfeed.indexer.backfill.internal.RateLimiter;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Indexes a store table from a scan of its items ({@link #run()}) or from a DynamoDB export of it to S3
 * ({@link #run(ExportFiles)}): events written before Streams was enabled, or whose 24 hours on the stream
 * were lost. Reads Tips and calves in parallel without their bodies, assembles each stream and ingests its
 * spans in index order. Safe to run again and beside a live indexer, which drops what the feed holds.
 *
 * <p>Run it before the live indexer starts from {@code TRIM_HORIZON}: a live indexer that meets a stream the
 * feed does not hold starts it where its first record is, and no backfill can put earlier events before them.
 */
public final class Backfill {

    private static final Logger log = LoggerFactory.getLogger(Backfill.class);
    /** A redelivery window reaching back past any epoch, so that every closed epoch is consulted for duplicates. */
    static final Duration ALL_EPOCHS = Duration.ofDays(365L * 100);
    private static final int QUEUED_STREAMS = 4096;
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(10);
    /** Attempts per batch after a failure that may pass (throttling, conflicts with a live indexer). */
    static final int MAX_RETRIES = 10;
    /** The AWS SDK's policy, appendsfeed's one retry policy: doubling from 200 ms, half jitter, at most a minute. */
    private static final BackoffStrategy BACKOFF = BackoffStrategy.exponentialDelayHalfJitter(Duration.ofMillis(200), Duration.ofMinutes(1));

    /** A batch was not ingested after every retry; what was ingested before stays, and running again carries on. */
    public static class BackfillFailedException extends RuntimeException {
        public BackfillFailedException(String position, int attempts, Throwable cause) {
            super("backfill stopped: the span " + position + " was not ingested after " + attempts + " attempts ("
                    + cause + "); fix the cause and run the backfill again: it skips what the feed already holds", cause);
        }
    }

    private final DynamoDbClient dynamo;
    private final IndexerConfig indexerConfig;
    private final BackfillConfig config;

    /** One run, counted as it goes. */
    private final class Run {
        final Indexer indexer = Indexer.start(dynamo, indexerConfig);
        final StreamAssembler assembler = new StreamAssembler();
        final long started = System.nanoTime();
        final AtomicLong scanned = new AtomicLong();
        final AtomicLong reserved = new AtomicLong();
        final AtomicLong streams = new AtomicLong();
        final AtomicLong accepted = new AtomicLong();
        final AtomicLong duplicates = new AtomicLong();
        final List<FeedGapException> gaps = new CopyOnWriteArrayList<>();
        volatile long readAgain;

        BackfillResult result() {
            return new BackfillResult(scanned.get(), reserved.get(), streams.get(), accepted.get(),
                    duplicates.get(), readAgain, assembler.rejected(), gaps, Duration.ofNanos(System.nanoTime() - started));
        }
    }

    /**
     * @param dynamo the caller's client, for both tables; the caller closes it
     * @param indexer the index to fill; its redelivery window is widened to every epoch (the events may be older than any)
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
     * @throws RuntimeException from DynamoDB; what was ingested stays, and running again is safe
     */
    public BackfillResult run() {
        RateLimiter limiter = new RateLimiter(config.maxItemsPerSecond());
        StoreScan scan = new StoreScan(dynamo, config.storeTable(), config.segments(), config.pageSize(), false);
        List<Task> segments = IntStream.range(0, config.segments()).<Task>mapToObj(segment ->
                (sink, scanned, cancelled) -> scan.segment(segment, sink, scanned, cancelled, limiter::acquire)).toList();
        return run("scan of " + config.storeTable() + " in " + config.segments() + " segments", segments);
    }

    /**
     * Runs the backfill to the end from a full DynamoDB JSON export of the store table, {@code segments} files
     * at a time; streams the export does not hold whole are read from the table.
     *
     * @throws ExportFiles.ExportFormatException when the export is not one of this store table, or a file is not
     *         what its manifest says; what was ingested before stays
     * @throws BackfillFailedException when a batch cannot be ingested after the retries; run again
     * @throws java.io.UncheckedIOException when a file cannot be read
     */
    public BackfillResult run(ExportFiles export) {
        List<Task> files = ExportManifest.read(export, config.storeTable()).stream().<Task>map(f ->
                (sink, scanned, cancelled) -> ExportManifest.readItems(export, f, sink, scanned, cancelled)).toList();
        return run("export " + export.describe() + " (" + files.size() + " files)", files);
    }

    /** A scan segment or an export file, read on one thread: each item to {@code sink}, counted, until done or cancelled. */
    @FunctionalInterface
    private interface Task {
        void read(Consumer<StoreItem> sink, AtomicLong scanned, BooleanSupplier cancelled);
    }

    private BackfillResult run(String source, List<Task> tasks) {
        Run run = new Run();
        BlockingQueue<List<Span>> assembled = new ArrayBlockingQueue<>(QUEUED_STREAMS);
        ExecutorService readers = Executors.newFixedThreadPool(config.segments(), r -> daemon(r, "appendsfeed-backfill-read"));
        ScheduledExecutorService reporter = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "appendsfeed-backfill-progress"));
        reporter.scheduleAtFixedRate(() -> log.info("backfill: {}", run.result()), PROGRESS_EVERY.toMillis(), PROGRESS_EVERY.toMillis(),
                TimeUnit.MILLISECONDS);
        log.info("backfill of {} into {} from the {}", config.storeTable(), indexerConfig.indexTable(), source);
        try {
            List<CompletableFuture<Void>> reads = tasks.stream().map(task -> CompletableFuture.runAsync(() -> task.read(
                    item -> route(item, run, assembled), run.scanned, Thread.currentThread()::isInterrupted), readers)).toList();
            boolean reading = true;
            while (reading || !assembled.isEmpty()) {
                List<SourceSpan> batch = new ArrayList<>();
                for (List<Span> stream = assembled.poll(50, TimeUnit.MILLISECONDS); stream != null;
                        stream = batch.size() < config.spansPerBatch() ? assembled.poll() : null) {
                    run.streams.incrementAndGet();
                    stream.forEach(sp -> batch.add(source(sp)));
                }
                ingest(run, batch);
                reading = !allDone(reads);
            }
            StoreClient store = new StoreClient(dynamo, StoreConfig.builder(config.storeTable()).build());
            for (StreamName s : run.assembler.incomplete()) {
                run.streams.incrementAndGet();
                run.readAgain++;
                ingest(run, readAgain(store, s).stream().map(Backfill::source).toList());
            }
            run.assembler.rejected().forEach((key, why) -> log.error("backfill: stream of item {} left out: {}", key, why));
            BackfillResult result = run.result();
            log.info("backfill done: {}", result);
            return result;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("backfill interrupted; run it again to finish", e);
        } finally {
            reporter.shutdownNow();
            readers.shutdownNow();
        }
    }

    private static void route(StoreItem item, Run run, BlockingQueue<List<Span>> out) {
        if (item instanceof StoreItem.Malformed m) {
            run.assembler.reject(m);
        } else if (!(item instanceof StoreItem.Tip || item instanceof StoreItem.Calf)) {
            run.reserved.incrementAndGet();
        } else {
            List<Span> spans = run.assembler.add(item);
            try {
                if (spans != null) {
                    out.put(spans); // waits while the indexer is behind: memory stays bounded
                }
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("backfill scan interrupted", x);
            }
        }
    }

    /** The span as handed to the indexer; its position {@code stream@index} is unique in a backfill. */
    private static SourceSpan source(Span s) {
        return SourceSpan.of(s, s.stream() + "@" + s.index());
    }

    /**
     * Hands a batch to the indexer, retrying what was not ingested; a stream with a gap is left out and reported.
     *
     * @throws BackfillFailedException when a span is still not ingested after every retry
     */
    private void ingest(Run run, List<SourceSpan> batch) throws InterruptedException {
        List<SourceSpan> rest = batch;
        for (int attempts = 0; !rest.isEmpty(); ) {
            BatchOutcome o = run.indexer.ingestSpans(rest);
            run.accepted.addAndGet(o.acceptedEvents());
            run.duplicates.addAndGet(o.duplicateEvents());
            if (o.complete()) {
                return;
            }
            rest = rest.subList(o.ingested(rest, SourceSpan::position), rest.size());
            StreamName stream = rest.get(0).span().stream();
            FeedGapException gap = o.errors().stream().filter(e -> e instanceof FeedGapException g && g.stream().equals(stream))
                    .map(FeedGapException.class::cast).findFirst().orElse(null);
            if (gap != null) {
                log.error("backfill: {} is left out: {}", stream, gap.getMessage());
                run.gaps.add(gap);
                rest = rest.stream().filter(s -> !s.span().stream().equals(stream)).toList();
                continue;
            }
            if (++attempts > MAX_RETRIES) {
                throw new BackfillFailedException(rest.get(0).position(), attempts, o.errors().isEmpty() ? null : o.errors().get(0));
            }
            Duration backoff = BACKOFF.computeDelay(attempts);
            log.warn("backfill: not ingested from {}, retry {} of {} in {}: {}", o.firstNotIngested(), attempts, MAX_RETRIES,
                    backoff, o.errors());
            Thread.sleep(backoff.toMillis());
        }
    }

    /** @throws RuntimeException the first failure of a read, as soon as it is seen */
    private static boolean allDone(List<CompletableFuture<Void>> reads) {
        for (CompletableFuture<Void> f : reads) {
            try {
                f.getNow(null);
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : e;
            }
        }
        return reads.stream().allMatch(CompletableFuture::isDone);
    }

    /** A stream the scan did not see whole, read with a query (types only); the indexer splits a span too big for one write. */
    private List<Span> readAgain(StoreClient store, StreamName stream) {
        List<StoredEvent> events = store.readAll(stream, Read.forward(0).typesOnly().strongly());
        if (events.isEmpty()) {
            return List.of();
        }
        long first = events.get(0).index();
        if (first > 0) {
            log.warn("backfill: {} starts at index {}: its earlier events are no longer stored", stream, first);
        }
        return List.of(new Span(stream, first, events.stream().map(StoredEvent::type).toList()));
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
