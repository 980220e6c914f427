package io.appendsfeed.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import io.appendsfeed.reader.CheckpointStore.StoredCheckpoint;
import io.appendsfeed.reader.CheckpointStore.CommitResult;
import io.appendsfeed.reader.LeaseStore.Lease;

/** The same rules for every checkpoint and lease store. */
@ExtendWith(LocalDynamoExtension.class)
class CheckpointStoreContractTest {

    private static final PartitionId P0 = PartitionId.ZERO;
    private static final Duration TTL = Duration.ofSeconds(10);

    static Stream<Arguments> stores() {
        Function<LocalDynamo, Function<MutableClock, Object>> dynamo = local -> clock -> {
            FeedFixture f = new FeedFixture(local, 2);
            return new DynamoCheckpointStore(local.dynamo(), f.indexTable, clock);
        };
        Function<LocalDynamo, Function<MutableClock, Object>> memory = local -> InMemoryCheckpointStore::new;
        return Stream.of(Arguments.of("dynamo", dynamo), Arguments.of("memory", memory));
    }

    private static <T extends CheckpointStore & LeaseStore> T make(Function<LocalDynamo, Function<MutableClock, Object>> f,
                                                                   LocalDynamo local, MutableClock clock) {
        @SuppressWarnings("unchecked")
        T store = (T) f.apply(local).apply(clock);
        return store;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    <T extends CheckpointStore & LeaseStore> void a_commit_never_moves_a_checkpoint_backwards(String name,
            Function<LocalDynamo, Function<MutableClock, Object>> f, LocalDynamo local) {
        T store = make(f, local, new MutableClock(Instant.parse("2026-01-01T00:00:00Z")));
        assertThat(store.read("g", P0)).isEmpty();
        assertThat(store.commit("g", P0, Checkpoint.of(1, 5), "a", null)).isInstanceOf(CommitResult.Committed.class);

        CommitResult back = store.commit("g", P0, Checkpoint.of(0, 9), "b", null);

        assertThat(back).isInstanceOfSatisfying(CommitResult.Behind.class,
                b -> assertThat(b.stored().checkpoint()).isEqualTo(Checkpoint.of(1, 5)));
        assertThat(store.read("g", P0)).get().satisfies(c -> {
            assertThat(c.checkpoint()).isEqualTo(Checkpoint.of(1, 5));
            assertThat(c.committedBy()).isEqualTo("a");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    <T extends CheckpointStore & LeaseStore> void an_override_moves_it_back_records_why_and_revokes_the_lease(String name,
            Function<LocalDynamo, Function<MutableClock, Object>> f, LocalDynamo local) {
        T store = make(f, local, new MutableClock(Instant.parse("2026-01-01T00:00:00Z")));
        Lease lease = store.tryAcquire("g", P0, "a", TTL).orElseThrow();
        store.commit("g", P0, Checkpoint.of(2, 0), "a", lease);

        store.override("g", P0, Checkpoint.of(1, 0), "reprocess after the pricing fix");

        assertThat(store.read("g", P0)).get().extracting(StoredCheckpoint::checkpoint).isEqualTo(Checkpoint.of(1, 0));
        assertThat(store.overrides("g", P0)).singleElement().satisfies(o -> {
            assertThat(o.from()).isEqualTo(Checkpoint.of(2, 0));
            assertThat(o.to()).isEqualTo(Checkpoint.of(1, 0));
            assertThat(o.reason()).isEqualTo("reprocess after the pricing fix");
        });
        assertThat(store.commit("g", P0, Checkpoint.of(2, 5), "a", lease)).isInstanceOf(CommitResult.LeaseLost.class);
        assertThat(store.renew(lease, TTL)).isEmpty();
        assertThatThrownBy(() -> store.override("g", P0, Checkpoint.START, " ")).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    <T extends CheckpointStore & LeaseStore> void an_override_under_the_held_lease_records_why_and_keeps_the_lease(String name,
            Function<LocalDynamo, Function<MutableClock, Object>> f, LocalDynamo local) {
        T store = make(f, local, new MutableClock(Instant.parse("2026-01-01T00:00:00Z")));
        Lease lease = store.tryAcquire("g", P0, "a", TTL).orElseThrow();
        store.commit("g", P0, Checkpoint.of(2, 0), "a", lease);

        CommitResult r = store.overrideHeld("g", P0, Checkpoint.of(1, 0), "reader a configured to start at 1/0", lease);

        assertThat(r).isInstanceOfSatisfying(CommitResult.Committed.class, c -> {
            assertThat(c.stored().checkpoint()).isEqualTo(Checkpoint.of(1, 0));
            assertThat(c.stored().committedBy()).isEqualTo("a");
        });
        assertThat(store.overrides("g", P0)).singleElement().satisfies(o -> {
            assertThat(o.from()).isEqualTo(Checkpoint.of(2, 0));
            assertThat(o.to()).isEqualTo(Checkpoint.of(1, 0));
            assertThat(o.by()).isEqualTo("a");
        });
        assertThat(store.current("g", P0)).get().extracting(Lease::token).as("the lease is kept").isEqualTo(lease.token());
        assertThat(store.renew(lease, TTL)).isPresent();
        assertThat(store.commit("g", P0, Checkpoint.of(1, 4), "a", lease)).isInstanceOf(CommitResult.Committed.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    <T extends CheckpointStore & LeaseStore> void an_override_under_a_lease_no_longer_held_writes_nothing(String name,
            Function<LocalDynamo, Function<MutableClock, Object>> f, LocalDynamo local) {
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        T store = make(f, local, clock);
        Lease a = store.tryAcquire("g", P0, "a", TTL).orElseThrow();
        store.commit("g", P0, Checkpoint.of(2, 0), "a", a);
        clock.advance(TTL.plusSeconds(1));
        store.tryAcquire("g", P0, "b", TTL).orElseThrow();

        CommitResult r = store.overrideHeld("g", P0, Checkpoint.START, "reader a configured to start at the beginning", a);

        assertThat(r).isInstanceOfSatisfying(CommitResult.LeaseLost.class, l -> assertThat(l.currentOwner()).isEqualTo("b"));
        assertThat(store.read("g", P0)).get().extracting(StoredCheckpoint::checkpoint).isEqualTo(Checkpoint.of(2, 0));
        assertThat(store.overrides("g", P0)).isEmpty();
        assertThat(store.current("g", P0)).get().extracting(Lease::owner).isEqualTo("b");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    <T extends CheckpointStore & LeaseStore> void a_lease_is_taken_over_only_after_it_expires_and_fences_the_old_owner(String name,
            Function<LocalDynamo, Function<MutableClock, Object>> f, LocalDynamo local) {
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        T store = make(f, local, clock);
        Lease a = store.tryAcquire("g", P0, "a", TTL).orElseThrow();
        assertThat(store.tryAcquire("g", P0, "b", TTL)).isEmpty();
        clock.advance(TTL.minusSeconds(1));
        assertThat(store.tryAcquire("g", P0, "b", TTL)).isEmpty();

        clock.advance(Duration.ofSeconds(2));
        Lease b = store.tryAcquire("g", P0, "b", TTL).orElseThrow();

        assertThat(b.token()).isNotEqualTo(a.token());
        assertThat(store.commit("g", P0, Checkpoint.of(0, 3), "a", a))
                .isInstanceOfSatisfying(CommitResult.LeaseLost.class, l -> assertThat(l.currentOwner()).isEqualTo("b"));
        assertThat(store.renew(a, TTL)).isEmpty();
        assertThat(store.commit("g", P0, Checkpoint.of(0, 3), "b", b)).isInstanceOf(CommitResult.Committed.class);
        store.release(b);
        assertThat(store.current("g", P0)).isEmpty();
        assertThat(store.tryAcquire("g", P0, "a", TTL)).isPresent();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    <T extends CheckpointStore & LeaseStore> void groups_and_their_partitions_are_listed(String name,
            Function<LocalDynamo, Function<MutableClock, Object>> f, LocalDynamo local) {
        T store = make(f, local, new MutableClock(Instant.parse("2026-01-01T00:00:00Z")));
        store.commit("projector", PartitionId.of(1), Checkpoint.of(0, 7), "a", null);
        store.commit("projector", P0, Checkpoint.of(0, 2), "a", null);
        store.commit("mailer", P0, Checkpoint.of(0, 1), "a", null);

        assertThat(store.groups()).containsExactly("mailer", "projector");
        List<StoredCheckpoint> list = store.list("projector");
        assertThat(list).extracting(StoredCheckpoint::partition, StoredCheckpoint::checkpoint).containsExactly(
                org.assertj.core.groups.Tuple.tuple(P0, Checkpoint.of(0, 2)),
                org.assertj.core.groups.Tuple.tuple(PartitionId.of(1), Checkpoint.of(0, 7)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    <T extends CheckpointStore & LeaseStore> void heartbeats_list_the_live_instances_and_drop_those_that_stop_or_leave(String name,
            Function<LocalDynamo, Function<MutableClock, Object>> f, LocalDynamo local) {
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        T store = make(f, local, clock);

        assertThat(store.heartbeat("g", "b", TTL)).containsExactly("b");
        assertThat(store.heartbeat("g", "a", TTL)).containsExactly("a", "b");
        assertThat(store.heartbeat("other", "c", TTL)).as("groups apart").containsExactly("c");
        clock.advance(TTL.minusSeconds(1));
        assertThat(store.heartbeat("g", "a", TTL)).containsExactly("a", "b");
        clock.advance(Duration.ofSeconds(2));
        assertThat(store.heartbeat("g", "a", TTL)).as("b stopped beating and ran out").containsExactly("a");
        assertThat(store.heartbeat("g", "c", TTL)).containsExactly("a", "c");
        store.leave("g", "a");
        assertThat(store.heartbeat("g", "c", TTL)).as("a left").containsExactly("c");
        store.leave("g", "nobody");
        assertThat(store.heartbeat("g", "c", TTL)).containsExactly("c");
    }
}
