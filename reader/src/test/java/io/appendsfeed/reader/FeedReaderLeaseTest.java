package io.appendsfeed.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import io.appendsfeed.reader.CheckpointStore.StoredCheckpoint;
import io.appendsfeed.reader.CheckpointStore.CommitResult;
import io.appendsfeed.reader.CheckpointStore.CheckpointOverride;
import io.appendsfeed.reader.LeaseStore.Lease;

@ExtendWith(LocalDynamoExtension.class)
class FeedReaderLeaseTest {

    /** Checkpoints and leases that stop answering when the instance "dies" (its network is cut). */
    static class Severable implements CheckpointStore {
        final DynamoCheckpointStore real;
        final AtomicBoolean cut = new AtomicBoolean();

        Severable(DynamoCheckpointStore real) {
            this.real = real;
        }

        void check() {
            if (cut.get()) {
                throw new IllegalStateException("network cut (test: the instance died)");
            }
        }

        @Override public Optional<StoredCheckpoint> read(String g, PartitionId p) { check(); return real.read(g, p); }
        @Override public CommitResult commit(String g, PartitionId p, Checkpoint to, String by, Lease fence) {
            check();
            return real.commit(g, p, to, by, fence);
        }
        @Override public StoredCheckpoint override(String g, PartitionId p, Checkpoint to, String reason) {
            check();
            return real.override(g, p, to, reason);
        }
        @Override public CommitResult overrideHeld(String g, PartitionId p, Checkpoint to, String reason, Lease lease) {
            check();
            return real.overrideHeld(g, p, to, reason, lease);
        }
        @Override public List<CheckpointOverride> overrides(String g, PartitionId p) { check(); return real.overrides(g, p); }
        @Override public List<StoredCheckpoint> list(String g) { check(); return real.list(g); }
        @Override public List<String> groups() { check(); return real.groups(); }
        @Override public Optional<Lease> tryAcquire(String g, PartitionId p, String owner, Duration t) {
            check();
            return real.tryAcquire(g, p, owner, t);
        }
        @Override public Optional<Lease> renew(Lease l, Duration t) { check(); return real.renew(l, t); }
        @Override public void release(Lease l) { check(); real.release(l); }
        @Override public Optional<Lease> current(String g, PartitionId p) { check(); return real.current(g, p); }
        @Override public List<String> heartbeat(String g, String owner, Duration t) { check(); return real.heartbeat(g, owner, t); }
        @Override public void leave(String g, String owner) { check(); real.leave(g, owner); }
    }

    @Test
    void a_joiner_gets_its_share_two_instances_never_read_one_partition_at_once_and_a_dead_ones_partitions_are_taken_over(LocalDynamo local)
            throws Exception {
        FeedFixture f = new FeedFixture(local, 4);
        for (int p = 0; p < 4; p++) {
            f.ingest(f.write(f.streamIn("Account", p, 0), "Opened"));
        }
        DynamoCheckpointStore dynamoStore = new DynamoCheckpointStore(local.dynamo(), f.indexTable, Clock.systemUTC());
        DynamoParkedStreams parked = new DynamoParkedStreams(local.dynamo(), f.indexTable, Clock.systemUTC());
        Severable aStore = new Severable(dynamoStore);
        Duration ttl = Duration.ofMillis(1500);
        Recorder aHandler = new Recorder();
        Recorder bHandler = new Recorder();
        FeedReader a = new FeedReader(local.dynamo(), f.config("leased").owner("A").leaseTimeout(ttl).build(), aHandler,
                aStore, parked);
        FeedReader b = new FeedReader(local.dynamo(), f.config("leased").owner("B").leaseTimeout(ttl).build(), bHandler,
                dynamoStore, parked);
        AtomicInteger overlaps = new AtomicInteger();
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                Set<PartitionId> both = new HashSet<>(a.partitions());
                both.retainAll(b.partitions());
                if (!both.isEmpty()) {
                    overlaps.incrementAndGet();
                }
                Thread.onSpinWait();
            }
        });
        try {
            a.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> a.partitions().size() == 4 && aHandler.total() == 4);
            sampler.start();
            b.start();
            // B joins: A hands over its surplus after committing, so B gets its share and redelivers nothing
            await().atMost(Duration.ofSeconds(10)).until(() -> a.partitions().size() == 2 && b.partitions().size() == 2);
            assertThat(bHandler.total()).as("events B handled again after the handover").isZero();

            aStore.cut.set(true);
            await().atMost(Duration.ofSeconds(10)).until(() -> b.partitions().size() == 4);
            assertThat(a.partitions()).isEmpty();
            String later = f.streamIn("Order", 2, 0);
            f.ingest(f.write(later, "Placed"));
            await().atMost(Duration.ofSeconds(10)).until(() -> bHandler.indices(later).size() == 1);
            assertThat(aHandler.indices(later)).isEmpty();
        } finally {
            sampling.set(false);
            sampler.join();
            b.close();
            a.close();
        }
        assertThat(overlaps).as("moments both instances read one partition").hasValue(0);
        for (int p = 0; p < 4; p++) {
            assertThat(dynamoStore.current("leased", PartitionId.of(p))).as("released on close").isEmpty();
        }
    }

    @Test
    void a_second_instance_takes_over_at_once_when_the_first_closes_cleanly(LocalDynamo local) {
        FeedFixture f = new FeedFixture(local, 2);
        f.ingest(f.write(f.streamIn("Account", 0, 0), "Opened"), f.write(f.streamIn("Account", 1, 0), "Opened"));
        Recorder aHandler = new Recorder();
        Recorder bHandler = new Recorder();
        try (FeedReader a = new FeedReader(local.dynamo(), f.config("handover").owner("A").build(), aHandler);
             FeedReader b = new FeedReader(local.dynamo(), f.config("handover").owner("B").build(), bHandler)) {
            a.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> aHandler.total() == 2);
            b.start();
            a.close();
            await().atMost(Duration.ofSeconds(10)).until(() -> b.partitions().size() == 2);
            f.ingest(f.write(f.streamIn("Account", 0, 0), "Changed"));
            await().atMost(Duration.ofSeconds(10)).until(() -> bHandler.total() == 1);
        }
        assertThat(bHandler.indices(f.streamIn("Account", 0, 0))).as("resumed from A's checkpoint").containsExactly(1L);
    }
}
