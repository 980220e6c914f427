package io.appendsfeed.reader.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.InMemoryCheckpointStore;
import io.appendsfeed.reader.LeaseStore.Lease;
import io.appendsfeed.reader.StartPosition;
import io.appendsfeed.reader.CheckpointStore.StoredCheckpoint;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A runner configured with an explicit start records it in the checkpoint under the lease it holds,
 * in one conditional write: it never revokes its own lease, so there is no moment where it holds
 * none (in the earlier design the override revoked the lease and the runner took it back, a window
 * another instance, or a failed renewal, could fall into).
 */
class StartUnderLeaseTest {

    private static final PartitionId P = PartitionId.ZERO;

    /** Counts the lease takes the runner makes. */
    private static final class Counting extends DelegatingStore {
        final AtomicInteger takes = new AtomicInteger();

        Counting(InMemoryCheckpointStore real) {
            super(real);
        }

        @Override
        public Optional<Lease> tryAcquire(String g, PartitionId p, String owner, Duration t) {
            takes.incrementAndGet();
            return super.tryAcquire(g, p, owner, t);
        }
    }

    @Test
    void an_explicit_start_is_recorded_under_the_runners_lease_which_it_keeps_and_commits_with() throws Exception {
        try (CoreFixture f = new CoreFixture(1)) {
            f.feed.ingest(f.feed.write("Account-1", "Opened"));
            f.feed.ingest(f.feed.write("Account-1", "Changed"));
            Counting store = new Counting(f.store);
            FeedReaderConfig config = f.config("start").start(StartPosition.beginning()).build();
            ReaderContext ctx = f.context(config, f.feed, store);
            f.store.commit("start", P, Checkpoint.of(0, 1), "earlier", null);
            Lease lease = f.store.tryAcquire("start", P, config.owner(), config.leaseTimeout()).orElseThrow();

            PartitionRunner r = f.start(ctx, P, new StartPlan(config.start(), true), lease);
            await().atMost(Duration.ofSeconds(10)).until(() -> f.store.read("start", P).map(StoredCheckpoint::checkpoint)
                    .filter(c -> c.equals(Checkpoint.of(0, 2))).isPresent());

            assertThat(f.handled).containsExactly("Account-1@0:Opened", "Account-1@1:Changed");
            assertThat(f.store.overrides("start", P)).singleElement().satisfies(o -> {
                assertThat(o.from()).isEqualTo(Checkpoint.of(0, 1));
                assertThat(o.to()).isEqualTo(Checkpoint.START);
                assertThat(o.by()).isEqualTo(config.owner());
            });
            assertThat(f.store.current("start", P)).get().extracting(Lease::token).as("the lease held from the start")
                    .isEqualTo(lease.token());
            assertThat(store.takes).as("lease takes by the runner").hasValue(0);
            assertThat(r.snapshot().phase()).isEqualTo(RunnerSnapshot.Phase.READING);
            f.close(ctx, r);
            assertThat(f.store.current("start", P)).as("released on close").isEmpty();
        }
    }

    @Test
    void a_runner_whose_lease_went_elsewhere_before_it_recorded_its_start_writes_nothing_and_stops() throws Exception {
        try (CoreFixture f = new CoreFixture(1)) {
            f.feed.ingest(f.feed.write("Account-1", "Opened"));
            FeedReaderConfig config = f.config("start").owner("a").start(StartPosition.beginning()).build();
            ReaderContext ctx = f.context(config);
            f.store.commit("start", P, Checkpoint.of(0, 1), "earlier", null);
            Lease stale = f.store.tryAcquire("start", P, "a", config.leaseTimeout()).orElseThrow();
            f.clock.advance(config.leaseTimeout().plusSeconds(1));
            Lease b = f.store.tryAcquire("start", P, "b", config.leaseTimeout()).orElseThrow();

            PartitionRunner r = f.start(ctx, P, new StartPlan(config.start(), true), stale);
            f.join();

            assertThat(r.snapshot().phase()).isEqualTo(RunnerSnapshot.Phase.STOPPED);
            assertThat(f.store.read("start", P)).get().extracting(StoredCheckpoint::checkpoint).isEqualTo(Checkpoint.of(0, 1));
            assertThat(f.store.overrides("start", P)).isEmpty();
            assertThat(f.store.current("start", P)).get().extracting(Lease::token).isEqualTo(b.token());
            assertThat(ctx.scheduler().buffered(P) >= 0).isFalse();
            assertThat(f.handled).isEmpty();
        }
    }
}
