package io.appendsfeed.reader;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.CapacityMeter;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.reader.ParkedStreams.ParkedStream;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.internal.BodyLoader;
import io.appendsfeed.reader.internal.Feed;
import io.appendsfeed.reader.internal.PartitionCoordinator;
import io.appendsfeed.reader.internal.ReaderContext;
import io.appendsfeed.reader.internal.Scheduler;
import io.appendsfeed.reader.internal.StreamCall;
import io.appendsfeed.reader.internal.metrics.ReaderMeter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Walks the feed and drives a {@link StreamHandler}: per stream in order and one call at a time,
 * streams in parallel up to {@link FeedReaderConfig#maxConcurrentStreams()}.
 *
 * <p>At least once: the checkpoint moves only past epoch events whose every span was handled (or
 * parked) together with everything before them. A failing stream is retried with backoff, then
 * parked durably ({@link #release} replays it). An epoch event this version cannot read stops its
 * partition; nothing is skipped. With leases, an instance that lost a partition can no longer commit it.
 * Log lines carry {@code group}, {@code partition} and {@code stream} in the MDC; metrics: {@link ReaderMetrics}.
 *
 * <pre>{@code
 * FeedReaderConfig config = FeedReaderConfig.builder("projector", "my-index", "my-store").build();
 * try (FeedReader reader = new FeedReader(dynamo, config, (stream, events) -> {
 *         events.forEach(e -> apply(stream, e));
 *         return HandlerResult.handled();
 *     })) {
 *     reader.start();
 *     ...
 * }
 * }</pre>
 */
public final class FeedReader implements AutoCloseable {

    private final FeedReaderConfig config;
    private final ReaderContext ctx;
    private final ExecutorService workers;
    private final ScheduledExecutorService timers;
    private final PartitionCoordinator coordinator;
    /** Null when metrics are off. */
    private final ReaderMeter meter;
    private final AtomicBoolean lastSampleTaken = new AtomicBoolean();

    /** Keeps checkpoints, leases and parked streams in the index table. The caller owns {@code dynamo}. */
    public FeedReader(DynamoDbClient dynamo, FeedReaderConfig config, StreamHandler handler) {
        this(dynamo, config, handler, new DynamoCheckpointStore(dynamo, config.indexTable(), config.clock()),
                new DynamoParkedStreams(dynamo, config.indexTable(), config.clock()));
    }

    /** With other stores (the checkpoint store also keeps the leases). */
    public FeedReader(DynamoDbClient dynamo, FeedReaderConfig config, StreamHandler handler, CheckpointStore checkpoints,
                      ParkedStreams parked) {
        this(config, handler, checkpoints, parked, dynamo, null);
    }

    /** Over a feed held elsewhere (tests of the core): bodies cannot be loaded nor parked streams replayed. */
    FeedReader(FeedReaderConfig config, StreamHandler handler, CheckpointStore checkpoints, ParkedStreams parked, Feed feed) {
        this(config, handler, checkpoints, parked, null, feed);
    }

    /** Reads the feed and the bodies through {@code dynamo}, or only {@code feed} when {@code dynamo} is null. */
    private FeedReader(FeedReaderConfig config, StreamHandler handler, CheckpointStore checkpoints, ParkedStreams parked,
                       DynamoDbClient dynamo, Feed feed) {
        this.config = config;
        if (dynamo == null && config.loadBodies()) {
            throw new IllegalArgumentException("a feed without a store table cannot load bodies; turn loadBodies off");
        }
        this.meter = config.metrics().enabled() ? new ReaderMeter(config.group(), config.metrics(), config.clock()) : null;
        BodyLoader loader = null;
        if (dynamo != null) {
            CapacityMeter m = meter != null ? meter : CapacityMeter.NONE;
            feed = Feed.of(new StoreClient(dynamo, StoreConfig.builder(config.indexTable()).reservedStreams(true)
                    .clock(config.clock()).meter(m).build()));
            loader = new BodyLoader(new StoreClient(dynamo, StoreConfig.builder(config.storeTable()).clock(config.clock()).meter(m)
                    .build()));
        }
        if (meter != null) {
            handler = meter.measure(handler);
        }
        this.workers = Executors.newFixedThreadPool(config.maxConcurrentStreams(), threads("handler"));
        this.timers = Executors.newSingleThreadScheduledExecutor(threads("timer"));
        Scheduler scheduler = new Scheduler(new StreamCall(config, handler, loader, parked, meter), config.maxConcurrentStreams(),
                config.maxBatchEvents(), BackoffStrategy.exponentialDelayHalfJitter(config.retryBackoffMin(), config.retryBackoffMax()),
                workers, timers);
        this.ctx = new ReaderContext(config, scheduler, feed, checkpoints, parked);
        this.coordinator = new PartitionCoordinator(ctx, Executors.newSingleThreadScheduledExecutor(threads("leases")), meter);
    }

    /** Named daemon threads, so that a reader never keeps a JVM alive and its threads show in dumps. */
    private ThreadFactory threads(String role) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "appendsfeed-" + config.group() + "-" + role + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    public FeedReaderConfig config() {
        return config;
    }

    /**
     * Takes partitions and starts reading them in the background; returns at once.
     *
     * @throws IllegalStateException when already started or closed, or the index table does not exist;
     *         other errors are logged and retried in the background
     */
    public void start() {
        coordinator.start();
    }

    /**
     * Stops reading, waits up to {@link FeedReaderConfig#shutdownTimeout()} for running handler calls,
     * commits what was handled and releases the leases. Idempotent.
     */
    @Override
    public void close() {
        coordinator.close();
        workers.shutdownNow();
        timers.shutdownNow();
        if (meter != null && lastSampleTaken.compareAndSet(false, true)) {
            // the last figures, the partitions no longer read included: what was handled up to the close, and the lag left
            meter.sample(coordinator::lag, () -> ctx.parked().list(config.group()).size(), true);
        }
    }

    /**
     * Starts if not yet, handles every partition held up to the tail its reads found, commits and
     * closes: for readers hosted in AWS Lambda. Events appended meanwhile are the next run's, so a run
     * pays for each epoch's Tip once.
     */
    public CatchUpResult runUntilCaughtUp(Duration timeout) {
        try {
            return coordinator.runUntilCaughtUp(timeout);
        } finally {
            close();
        }
    }

    /**
     * Lag of each partition this instance holds.
     *
     * @throws RuntimeException when the index table cannot be read to find the tails
     */
    public List<PartitionLag> lag() {
        return coordinator.lag();
    }

    /** The group's parked streams (all partitions), from the parked store. */
    public List<ParkedStream> parked() {
        return ctx.parked().list(config.group());
    }

    /**
     * Releases a parked stream: the instance holding its partition replays it from where it stopped.
     *
     * @return false when the stream was not parked
     */
    public boolean release(StreamName stream, String by) {
        boolean released = ctx.parked().release(config.group(), stream, by);
        if (released) {
            coordinator.refreshParked();
        }
        return released;
    }

    /** The partitions this instance reads now. */
    public List<PartitionId> partitions() {
        return coordinator.held();
    }

    /**
     * The outcome of {@link FeedReader#runUntilCaughtUp}.
     *
     * @param caughtUp every partition held was handled to its tail (parked streams count) and committed
     * @param lag per partition; one read to its tail reports the tail its last read found, without reading the index again
     */
    public record CatchUpResult(boolean caughtUp, List<PartitionLag> lag) {
        public CatchUpResult {
            lag = List.copyOf(lag);
        }
    }

    /**
     * How far behind the feed one partition is, as this reader instance sees it.
     *
     * @param committed the checkpoint last committed (null when none)
     * @param handled everything before it is handled (what the next commit writes)
     * @param tail the end of the partition now; null when the index could not be read: then {@code eventsBehind}
     *             is -1, {@code oldestUnhandledAge} null and {@code error} says why
     * @param eventsBehind epoch events from {@code handled} to {@code tail}
     * @param oldestUnhandledAge how long ago the oldest epoch event not yet handled was indexed; zero when caught up
     * @param failingStreams streams being retried after handler failures
     * @param error why the partition stopped, when {@link State#FAILED}
     */
    public record PartitionLag(PartitionId partition, State state, Checkpoint committed, Checkpoint handled, Checkpoint tail,
                               long eventsBehind, Duration oldestUnhandledAge, int failingStreams, String error) {

        public enum State {
            /** Resolving its start position. */
            STARTING,
            /** Walking the feed. */
            READING,
            /** Not read by this instance any more (closed, or its lease went to another instance). */
            STOPPED,
            /** Stopped on something it cannot read (a newer format); nothing was skipped. See {@code error}. */
            FAILED
        }
    }
}
