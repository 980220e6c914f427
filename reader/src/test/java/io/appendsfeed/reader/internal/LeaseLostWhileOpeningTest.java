package io.appendsfeed.reader.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.CheckpointStore.CommitResult;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.InMemoryCheckpointStore;
import io.appendsfeed.reader.LeaseStore.Lease;
import io.appendsfeed.reader.FeedReader.PartitionLag;
import io.appendsfeed.reader.StartPosition;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The race of issue 13, made deterministic, on the core alone (feed, checkpoints and leases in
 * memory, no ticker). The interleaving it forces, step by step:
 * <ol>
 *   <li>a runner starting from an explicit position records that start in the checkpoint under its
 *       lease (in the earlier design: wrote an override that revoked the lease, then took the
 *       lease back);</li>
 *   <li>right then, on another thread, the coordinator's renewal fails and it calls
 *       {@code lose()}: the runner is LOST, and {@code lose()} closes the partition in the
 *       scheduler, where it is not open yet;</li>
 *   <li>the runner, unaware, goes on and opens the partition in the scheduler.</li>
 * </ol>
 * The hook that runs step 2 sits in the checkpoint store, after its write returns and before the
 * runner opens the partition, so the order is the same on every run. In the earlier design step 3
 * left the partition open in the scheduler with nobody to close it: every later runner of that
 * partition failed on "partition 0 is already open" and retried for ever, while its lease kept
 * being renewed, so no other instance could take the partition over either. Now whoever opens a
 * partition closes it when it stops: the next runner opens and reads it.
 */
class LeaseLostWhileOpeningTest {

    private static final PartitionId P = PartitionId.ZERO;

    /** Checkpoints and leases in memory; runs {@code afterStartRecorded} once the runner's start is written under its lease. */
    private static final class Hooked extends DelegatingStore {
        final AtomicReference<Runnable> afterStartRecorded = new AtomicReference<>(() -> { });

        Hooked(InMemoryCheckpointStore real) {
            super(real);
        }

        @Override
        public CommitResult overrideHeld(String g, PartitionId p, Checkpoint to, String reason, Lease lease) {
            CommitResult r = super.overrideHeld(g, p, to, reason, lease);
            afterStartRecorded.getAndSet(() -> { }).run();
            return r;
        }
    }

    @Test
    void a_lease_lost_between_recording_the_start_and_opening_leaves_the_partition_free_for_the_next_runner() throws Exception {
        try (CoreFixture f = new CoreFixture(1)) {
            f.feed.ingest(f.feed.write("Account-1", "Opened"));
            Hooked store = new Hooked(f.store);
            FeedReaderConfig config = f.config("race").start(StartPosition.beginning()).build();
            ReaderContext ctx = f.context(config, f.feed, store);
            f.store.commit("race", P, Checkpoint.of(0, 1), "earlier", null); // stored: the explicit start overrides it
            Lease first = f.store.tryAcquire("race", P, config.owner(), config.leaseTimeout()).orElseThrow();
            PartitionRunner runner = f.runner(ctx, P, new StartPlan(config.start(), true), first);
            store.afterStartRecorded.set(() -> runner.lose("its lease could not be renewed before it expires (injected)"));

            f.start(runner);
            f.join();

            assertThat(runner.snapshot().phase()).isEqualTo(RunnerSnapshot.Phase.STOPPED);
            assertThat(ctx.scheduler().buffered(P) >= 0).as("the lost runner left the partition open in the scheduler").isFalse();
            // the coordinator takes the partition again and starts a new runner, from the stored checkpoint
            Lease again = f.store.tryAcquire("race", P, config.owner(), config.leaseTimeout()).orElseThrow();
            PartitionRunner next = f.start(ctx, P, new StartPlan(config.start(), false), again);
            await().atMost(Duration.ofSeconds(10)).until(() -> next.snapshot().state() == PartitionLag.State.READING);
            await().atMost(Duration.ofSeconds(10)).until(() -> f.handled.contains("Account-1@0:Opened"));
            f.close(ctx, next);
            assertThat(f.allEnded()).isTrue();
        }
    }
}
