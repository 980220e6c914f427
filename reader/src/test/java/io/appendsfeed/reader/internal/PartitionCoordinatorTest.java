package io.appendsfeed.reader.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.CheckpointStore.CommitResult;
import io.appendsfeed.reader.LeaseStore.Lease;
import io.appendsfeed.reader.CheckpointStore.StoredCheckpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The coordinator on the core alone: feed, checkpoints, leases and heartbeats in memory, lease
 * expiry on a clock the test moves. Instances of one group share the stores as they would share
 * the index table.
 */
class PartitionCoordinatorTest {

    private static final String GROUP = "coord";
    private final CoreFixture f = new CoreFixture(4);
    private final List<PartitionCoordinator> coordinators = new ArrayList<>();
    private final List<ScheduledExecutorService> tickers = new ArrayList<>();

    @AfterEach
    void stop() {
        coordinators.forEach(PartitionCoordinator::close);
        tickers.forEach(ScheduledExecutorService::shutdownNow);
        f.close();
    }

    private PartitionCoordinator instance(String owner, ScheduledExecutorService ticker) {
        PartitionCoordinator c = new PartitionCoordinator(f.context(f.config(GROUP).owner(owner).build()), ticker, null);
        coordinators.add(c);
        tickers.add(ticker);
        c.start();
        return c;
    }

    private PartitionCoordinator instance(String owner) {
        return instance(owner, Executors.newSingleThreadScheduledExecutor());
    }

    private void writeToEveryPartition() {
        for (int p = 0; p < 4; p++) {
            f.feed.ingest(f.feed.write(f.feed.streamIn("Account", p, 0), "Opened"));
        }
    }

    private boolean handledEverything() {
        return f.handled.size() >= 4;
    }

    @Test
    void a_late_joiner_gets_its_fair_share_and_the_two_never_list_one_partition() {
        writeToEveryPartition();
        PartitionCoordinator a = instance("a");
        assertThat(a.held()).as("alone, a takes every partition on start").hasSize(4);
        await().atMost(Duration.ofSeconds(10)).until(this::handledEverything);

        PartitionCoordinator b = instance("b");
        ConcurrentLinkedQueue<String> overlaps = new ConcurrentLinkedQueue<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            Set<PartitionId> both = new HashSet<>(a.held());
            both.retainAll(b.held());
            if (!both.isEmpty()) {
                overlaps.add(both.toString());
            }
            return a.held().size() == 2 && b.held().size() == 2;
        });

        assertThat(overlaps).as("partitions listed by both at once").isEmpty();
        assertThat(f.handled).as("handed over at a batch boundary: nothing handled twice").hasSize(4);
    }

    @Test
    void an_instance_that_leaves_hands_its_partitions_to_the_others_at_once() {
        PartitionCoordinator a = instance("a");
        PartitionCoordinator b = instance("b");
        await().atMost(Duration.ofSeconds(10)).until(() -> a.held().size() == 2 && b.held().size() == 2);

        b.close();

        assertThat(f.store.heartbeat(GROUP, "a", Duration.ofSeconds(30))).as("b left the live instances").containsExactly("a");
        await().atMost(Duration.ofSeconds(10)).until(() -> a.held().size() == 4);
        writeToEveryPartition();
        await().atMost(Duration.ofSeconds(10)).until(this::handledEverything);
    }

    @Test
    void a_dead_instances_partitions_are_taken_over_once_its_leases_expire_and_it_can_no_longer_commit_them() {
        PartitionCoordinator a = instance("a");
        ScheduledExecutorService bTicker = Executors.newSingleThreadScheduledExecutor();
        PartitionCoordinator b = instance("b", bTicker);
        await().atMost(Duration.ofSeconds(10)).until(() -> a.held().size() == 2 && b.held().size() == 2);
        List<PartitionId> bHeld = b.held();
        Lease bLease = f.store.current(GROUP, bHeld.get(0)).orElseThrow();

        bTicker.shutdownNow(); // b stops renewing its leases and beating: to the group it is dead
        f.clock.advance(Duration.ofSeconds(31)); // past the lease timeout (30 s) and b's heartbeat

        await().atMost(Duration.ofSeconds(10)).until(() -> a.held().size() == 4);
        assertThat(f.store.commit(GROUP, bHeld.get(0), Checkpoint.of(0, 9), "b", bLease))
                .as("a commit fenced by b's old lease").isInstanceOf(CommitResult.LeaseLost.class);
        writeToEveryPartition();
        await().atMost(Duration.ofSeconds(10)).until(this::handledEverything);
        await().atMost(Duration.ofSeconds(10)).until(() -> bHeld.stream().allMatch(p -> f.store.read(GROUP, p)
                .map(StoredCheckpoint::committedBy).filter("a"::equals).isPresent()));
    }

    @Test
    void an_override_stops_the_holder_which_takes_the_partition_again_and_reads_from_the_new_position() {
        writeToEveryPartition();
        PartitionCoordinator a = instance("a");
        await().atMost(Duration.ofSeconds(10)).until(() -> f.store.list(GROUP).stream()
                .allMatch(c -> c.checkpoint().equals(Checkpoint.of(0, 1))) && f.store.list(GROUP).size() == 4);
        PartitionId p = PartitionId.of(2);
        Lease before = f.store.current(GROUP, p).orElseThrow();

        f.store.override(GROUP, p, Checkpoint.START, "test: replay partition 2");

        await().atMost(Duration.ofSeconds(10)).until(() -> f.store.current(GROUP, p)
                .filter(l -> !l.token().equals(before.token())).isPresent() && a.held().contains(p));
        // read again from the start under the new lease, and committed past its one event again
        await().atMost(Duration.ofSeconds(10)).until(() -> f.store.read(GROUP, p)
                .filter(c -> c.committedBy().equals("a") && c.checkpoint().equals(Checkpoint.of(0, 1))).isPresent());
        f.feed.ingest(f.feed.write(f.feed.streamIn("Account", 2, 0), "Changed"));
        await().atMost(Duration.ofSeconds(10)).until(() -> f.handled.contains(f.feed.streamIn("Account", 2, 0) + "@1:Changed"));
    }
}
