package io.appendsfeed.reader.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.CheckpointStore.CommitResult;
import io.appendsfeed.reader.LeaseStore.Lease;
import io.appendsfeed.reader.CheckpointStore.OverrideResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The decisions both checkpoint stores take, without a store. */
class CheckpointItemTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration TTL = Duration.ofSeconds(10);
    private final CheckpointItem empty = CheckpointItem.empty("g", PartitionId.ZERO);

    @Test
    void a_refused_decision_writes_nothing() {
        CheckpointItem at5 = empty.commit(Checkpoint.of(0, 5), "a", null, NOW).next();

        CheckpointItem.Decision<CommitResult> back = at5.commit(Checkpoint.of(0, 4), "a", null, NOW);

        assertThat(back.next()).isNull();
        assertThat(back.result()).isInstanceOf(CommitResult.Behind.class);
        Lease someone = new Lease("g", PartitionId.ZERO, "b", "t", NOW.plus(TTL));
        assertThat(at5.commit(Checkpoint.of(0, 6), "b", someone, NOW).next()).as("fenced by a lease never taken").isNull();
        assertThat(at5.renew(someone, TTL, NOW).result()).isEmpty();
        assertThat(at5.release(someone).next()).isNull();
        assertThat(at5.overrideIf(Optional.of(Checkpoint.of(0, 1)), Checkpoint.START, "why", "op", NOW).result())
                .isInstanceOf(OverrideResult.Moved.class);
    }

    @Test
    void an_override_records_from_and_to_and_revokes_the_lease_unless_made_by_its_holder() {
        CheckpointItem.Decision<Optional<Lease>> taken = empty.acquire("a", TTL, NOW);
        Lease a = taken.result().orElseThrow();
        CheckpointItem held = taken.next().commit(Checkpoint.of(1, 0), "a", a, NOW).next();

        CheckpointItem.Decision<?> operator = held.override(Checkpoint.of(0, 3), "replay", NOW);
        CheckpointItem.Decision<CommitResult> own = held.overrideHeld(Checkpoint.of(0, 3), "configured start", a, NOW);

        assertThat(operator.overridden().from()).isEqualTo(Checkpoint.of(1, 0));
        assertThat(operator.overridden().to()).isEqualTo(Checkpoint.of(0, 3));
        assertThat(operator.next().lease()).isEmpty();
        assertThat(own.next().lease()).contains(a);
        assertThat(own.overridden().by()).isEqualTo("a");
        assertThat(CheckpointItem.decode("s", CheckpointItem.encode(operator.overridden()).data())).isEqualTo(operator.overridden());
        assertThatThrownBy(() -> held.override(Checkpoint.START, " ", NOW)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_lease_is_kept_by_its_owner_and_taken_over_only_once_expired() {
        CheckpointItem.Decision<Optional<Lease>> first = empty.acquire("a", TTL, NOW);
        Lease a = first.result().orElseThrow();

        assertThat(first.next().acquire("a", TTL, NOW.plusSeconds(1)).result()).get().extracting(Lease::token).isEqualTo(a.token());
        assertThat(first.next().acquire("b", TTL, NOW.plus(TTL).minusMillis(1)).next()).isNull();
        assertThat(first.next().acquire("b", TTL, NOW.plus(TTL)).result()).get().extracting(Lease::token).isNotEqualTo(a.token());
    }
}
