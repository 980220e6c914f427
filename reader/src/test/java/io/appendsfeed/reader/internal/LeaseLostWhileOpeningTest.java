package io.appendsfeed.reader.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.reader.FeedFixture;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.HandlerResult;
import io.appendsfeed.reader.InMemoryCheckpointStore;
import io.appendsfeed.reader.InMemoryParkedStreams;
import io.appendsfeed.reader.Lease;
import io.appendsfeed.reader.LeaseStore;
import io.appendsfeed.reader.StartPosition;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The race of issue 13, made deterministic: a runner starting from an explicit position writes an
 * override (which revokes its own lease), takes the lease again, and before it opens the partition
 * in the scheduler its lease is found lost. The partition must not stay open in the scheduler: the
 * next runner for it (after the lease is taken again) must be able to read it. Before the fix the
 * slot stayed open and every later runner retried "partition ... is already open" for ever, while
 * its lease kept being renewed so that no other instance could take the partition over.
 */
@ExtendWith(LocalDynamoExtension.class)
class LeaseLostWhileOpeningTest {

    private static final PartitionId P = PartitionId.ZERO;

    private final ExecutorService workers = Executors.newFixedThreadPool(2);
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        workers.shutdownNow();
        timers.shutdownNow();
    }

    /** Leases in memory; runs {@code onRetake} right after a runner takes its lease back following its own override. */
    private static final class HookedLeases implements LeaseStore {
        final InMemoryCheckpointStore store;
        volatile Consumer<Lease> onRetake = l -> { };

        HookedLeases(InMemoryCheckpointStore store) {
            this.store = store;
        }

        @Override
        public Optional<Lease> tryAcquire(String group, PartitionId partition, String owner, Duration timeout) {
            Optional<Lease> taken = store.tryAcquire(group, partition, owner, timeout);
            taken.ifPresent(l -> onRetake.accept(l));
            return taken;
        }

        @Override
        public Optional<Lease> renew(Lease lease, Duration timeout) {
            return store.renew(lease, timeout);
        }

        @Override
        public void release(Lease lease) {
            store.release(lease);
        }

        @Override
        public Optional<Lease> current(String group, PartitionId partition) {
            return store.current(group, partition);
        }
    }

    @Test
    void a_lease_lost_between_taking_it_back_and_opening_leaves_the_partition_free_for_the_next_runner(LocalDynamo local)
            throws Exception {
        FeedFixture f = new FeedFixture(local, 1);
        f.ingest(f.write("Account-1", "Opened"));
        InMemoryCheckpointStore checkpoints = new InMemoryCheckpointStore();
        HookedLeases store = new HookedLeases(checkpoints);
        checkpoints.commit("race", P, Checkpoint.of(0, 1), "earlier", null); // a stored checkpoint: the explicit start overrides it
        FeedReaderConfig config = f.config("race").start(StartPosition.beginning()).build();
        List<String> handled = new CopyOnWriteArrayList<>();
        StoreClient index = new StoreClient(local.dynamo(), StoreConfig.builder(f.indexTable).reservedStreams(true).build());
        EventFilter filter = new EventFilter(config.categories(), config.eventTypes());
        StreamCall call = new StreamCall("race", (stream, events) -> {
            events.forEach(e -> handled.add(e.toString()));
            return HandlerResult.handled();
        }, null, new InMemoryParkedStreams(), filter, false, 100, config.clock());
        Scheduler scheduler = new Scheduler(call, filter, 2, 100, 3, new Backoff(Duration.ofMillis(5), Duration.ofMillis(20)),
                workers, timers);
        ReaderContext ctx = new ReaderContext(config, scheduler, new EpochReader(index), new FeedPositions(index), checkpoints, store,
                new InMemoryParkedStreams());

        Lease first = store.tryAcquire("race", P, config.owner(), config.leaseTimeout()).orElseThrow();
        PartitionRunner[] runner = new PartitionRunner[1];
        // the ticker's renewal fails at the worst moment: just after the runner took its lease back
        store.onRetake = l -> runner[0].lose("its lease could not be renewed before it expires (injected)");
        runner[0] = new PartitionRunner(ctx, P, new StartPlan(config.start(), true), first);
        Thread t = new Thread(runner[0], "first-runner");
        t.start();
        t.join(10_000);
        store.onRetake = l -> { };
        assertThat(t.isAlive()).isFalse();

        // the coordinator takes the partition again and starts a new runner from the stored checkpoint
        Lease again = store.tryAcquire("race", P, config.owner(), config.leaseTimeout()).orElseThrow();
        PartitionRunner next = new PartitionRunner(ctx, P, new StartPlan(config.start(), false), again);
        Thread t2 = new Thread(next, "next-runner");
        t2.setDaemon(true);
        t2.start();
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> next.state() == io.appendsfeed.reader.PartitionLag.State.READING);
            await().atMost(Duration.ofSeconds(10)).until(() -> handled.contains("Account-1@0:Opened"));
        } finally {
            java.util.concurrent.CountDownLatch handlersStopped = new java.util.concurrent.CountDownLatch(1);
            next.close(handlersStopped);
            scheduler.stopDispatching();
            scheduler.awaitNoneRunning(Duration.ofSeconds(10));
            handlersStopped.countDown();
            t2.join(10_000);
        }
    }
}
