package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.CheckpointStore;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.InMemoryCheckpointStore;
import io.appendsfeed.reader.InMemoryParkedStreams;
import io.appendsfeed.reader.LeaseStore.Lease;
import io.appendsfeed.reader.StreamHandler;
import io.appendsfeed.reader.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.retries.api.BackoffStrategy;

/**
 * The reader's core without DynamoDB: a feed, checkpoints, leases and parked streams in memory, on
 * a clock the test moves, with one scheduler and a handler that records {@code stream@index:type}.
 * Runners are started on threads of their own, as the coordinator starts them.
 */
final class CoreFixture implements AutoCloseable {

    static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");

    final MutableClock clock = new MutableClock(T0);
    final InMemoryFeed feed;
    final InMemoryCheckpointStore store = new InMemoryCheckpointStore(clock);
    final InMemoryParkedStreams parked = new InMemoryParkedStreams();
    final List<String> handled = new CopyOnWriteArrayList<>();
    private final ExecutorService workers = Executors.newFixedThreadPool(2);
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final CountDownLatch handlersStopped = new CountDownLatch(1);

    CoreFixture(int partitions) {
        this.feed = new InMemoryFeed(partitions, clock);
    }

    /** Test settings: short intervals, index-only (the feed holds no bodies). */
    FeedReaderConfig.Builder config(String group) {
        return FeedReaderConfig.builder(group, "index", "store").loadBodies(false).clock(clock)
                .pollInterval(Duration.ofMillis(20)).commitInterval(Duration.ofMillis(50))
                .retryBackoff(Duration.ofMillis(5), Duration.ofMillis(20)).leaseTimeout(Duration.ofSeconds(30))
                .parkedPollInterval(Duration.ofMillis(200)).shutdownTimeout(Duration.ofSeconds(5));
    }

    ReaderContext context(FeedReaderConfig config, Feed feed, CheckpointStore checkpoints) {
        return context(config, feed, checkpoints, (stream, events) -> HandlerResult.handled());
    }

    /** With {@code then} called after each batch is recorded, on the handler's thread (it may block). */
    ReaderContext context(FeedReaderConfig config, Feed feed, CheckpointStore checkpoints, StreamHandler then) {
        StreamCall call = new StreamCall(config, (stream, events) -> {
            events.forEach(e -> handled.add(e.toString()));
            return then.handle(stream, events);
        }, null, parked, null);
        Scheduler scheduler = new Scheduler(call, 2, config.maxBatchEvents(),
                BackoffStrategy.exponentialDelayHalfJitter(Duration.ofMillis(5), Duration.ofMillis(20)), workers, timers);
        return new ReaderContext(config, scheduler, feed, checkpoints, parked);
    }

    ReaderContext context(FeedReaderConfig config) {
        return context(config, feed, store);
    }

    /** A runner, not started yet (so that a test can hook it before its thread runs). */
    PartitionRunner runner(ReaderContext ctx, PartitionId p, StartPlan plan, Lease lease) {
        return new PartitionRunner(ctx, p, plan, lease, handlersStopped);
    }

    PartitionRunner start(ReaderContext ctx, PartitionId p, StartPlan plan, Lease lease) {
        return start(runner(ctx, p, plan, lease));
    }

    PartitionRunner start(PartitionRunner r) {
        PartitionId p = r.partition();
        Thread t = new Thread(r, "runner-" + p + "-" + threads.size());
        t.setDaemon(true);
        threads.add(t);
        t.start();
        return r;
    }

    /** Closes the runner as the coordinator does (handler calls stopped first) and waits for its thread. */
    void close(ReaderContext ctx, PartitionRunner r) throws InterruptedException {
        r.close();
        ctx.scheduler().stop(Duration.ofSeconds(10));
        handlersStopped.countDown();
        join();
    }

    /** Waits for every runner thread started here to end. */
    void join() throws InterruptedException {
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(10));
        }
    }

    boolean allEnded() {
        return threads.stream().noneMatch(Thread::isAlive);
    }

    @Override
    public void close() {
        handlersStopped.countDown();
        workers.shutdownNow();
        timers.shutdownNow();
    }
}
