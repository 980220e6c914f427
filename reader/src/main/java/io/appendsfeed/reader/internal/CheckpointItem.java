package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.StoredUnfold;
import io.appendsfeed.model.store.Tip;
import io.appendsfeed.model.store.Unfold;
import io.appendsfeed.reader.CheckpointStore.CheckpointOverride;
import io.appendsfeed.reader.CheckpointStore;
import io.appendsfeed.reader.CheckpointStore.CommitResult;
import io.appendsfeed.reader.LeaseStore.Lease;
import io.appendsfeed.reader.CheckpointStore.OverrideResult;
import io.appendsfeed.reader.CheckpointStore.StoredCheckpoint;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * The state of one group's partition, {@code $ReaderCheckpoint-<group>_<partition>}: its checkpoint
 * and its lease, and the pure decisions both stores take over it (the Dynamo store loads the Tip,
 * decides, and writes conditioned on the Tip's etag, deciding again on a conflict; the in-memory
 * store decides under its lock). Stored as the Tip's unfolds {@code Checkpoint {pos, at, by}} and
 * {@code Lease {owner, token, expiresAt}}; overrides are appended as events
 * {@code Overridden {from, to, reason, at, by}}. Unfolds of other types (a newer writer's) are
 * carried over untouched. These names and fields define the storage format.
 */
public record CheckpointItem(String group, PartitionId partition, Optional<StoredCheckpoint> checkpoint,
                             Optional<Lease> lease, List<Unfold> others) {

    public static final String CHECKPOINT = "Checkpoint";
    public static final String LEASE = "Lease";
    public static final String OVERRIDDEN = "Overridden";

    /**
     * @param next the state to write; null to write nothing
     * @param overridden the override to record with it, or null
     * @param result what the caller is answered
     */
    public record Decision<T>(CheckpointItem next, CheckpointOverride overridden, T result) {
        static <T> Decision<T> none(T result) {
            return new Decision<>(null, null, result);
        }

        static <T> Decision<T> write(CheckpointItem next, T result) {
            return new Decision<>(next, null, result);
        }
    }

    public static CheckpointItem empty(String group, PartitionId partition) {
        return new CheckpointItem(group, partition, Optional.empty(), Optional.empty(), List.of());
    }

    /** Commits move forwards only, and only under the current lease when fenced by one. */
    public Decision<CommitResult> commit(Checkpoint to, String by, Lease fence, Instant now) {
        if (fence != null && !holds(fence)) {
            return Decision.none(leaseLost());
        }
        if (checkpoint.isPresent() && checkpoint.get().checkpoint().compareTo(to) > 0) {
            return Decision.none(new CommitResult.Behind(checkpoint.get()));
        }
        StoredCheckpoint next = new StoredCheckpoint(group, partition, to, now, by);
        return Decision.write(withCheckpoint(next), new CommitResult.Committed(next));
    }

    /** An operator's move: recorded, and the lease revoked, so that a reader holding it stops and restarts from {@code to}. */
    public Decision<StoredCheckpoint> override(Checkpoint to, String reason, Instant now) {
        checkOverride(reason, CheckpointStore.OVERRIDE_BY);
        return moved(to, reason, CheckpointStore.OVERRIDE_BY, true, now, next -> next);
    }

    /** The lease holder's own move (its configured start position): recorded, the lease kept. */
    public Decision<CommitResult> overrideHeld(Checkpoint to, String reason, Lease lease, Instant now) {
        checkOverride(reason, lease.owner());
        if (!holds(lease)) {
            return Decision.none(leaseLost());
        }
        return moved(to, reason, lease.owner(), false, now, CommitResult.Committed::new);
    }

    /** An operator's move made only while the stored checkpoint is still the one the operator saw. */
    public Decision<OverrideResult> overrideIf(Optional<Checkpoint> expected, Checkpoint to, String reason, String by, Instant now) {
        checkOverride(reason, by);
        if (!checkpoint.map(StoredCheckpoint::checkpoint).equals(expected)) {
            return Decision.none(new OverrideResult.Moved(checkpoint));
        }
        return moved(to, reason, by, true, now, OverrideResult.Applied::new);
    }

    private <T> Decision<T> moved(Checkpoint to, String reason, String by, boolean revoke, Instant now,
                                  Function<StoredCheckpoint, T> result) {
        StoredCheckpoint next = new StoredCheckpoint(group, partition, to, now, by);
        Checkpoint from = checkpoint.map(StoredCheckpoint::checkpoint).orElse(null);
        CheckpointOverride record = new CheckpointOverride(now, from, to, reason, by);
        CheckpointItem written = revoke ? withCheckpoint(next).withLease(null) : withCheckpoint(next);
        return new Decision<>(written, record, result.apply(next));
    }

    /** Free, released, expired or already ours: taken (ours keeps its token, so that our commits stay fenced). */
    public Decision<Optional<Lease>> acquire(String owner, Duration timeout, Instant now) {
        if (lease.isPresent() && !lease.get().owner().equals(owner) && lease.get().expiresAt().isAfter(now)) {
            return Decision.none(Optional.empty());
        }
        String token = lease.isPresent() && lease.get().owner().equals(owner) ? lease.get().token() : UUID.randomUUID().toString();
        Lease taken = new Lease(group, partition, owner, token, now.plus(timeout));
        return Decision.write(withLease(taken), Optional.of(taken));
    }

    public Decision<Optional<Lease>> renew(Lease held, Duration timeout, Instant now) {
        if (!holds(held)) {
            return Decision.none(Optional.empty());
        }
        Lease renewed = new Lease(group, partition, held.owner(), held.token(), now.plus(timeout));
        return Decision.write(withLease(renewed), Optional.of(renewed));
    }

    public Decision<Boolean> release(Lease held) {
        return holds(held) ? Decision.write(withLease(null), true) : Decision.none(false);
    }

    private boolean holds(Lease l) {
        return lease.isPresent() && lease.get().token().equals(l.token());
    }

    private CommitResult leaseLost() {
        return new CommitResult.LeaseLost(lease.map(Lease::owner).orElse(null));
    }

    public static void checkOverride(String reason, String by) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("an override needs a reason, recorded in the checkpoint's history");
        }
        if (by == null || by.isBlank()) {
            throw new IllegalArgumentException("an override needs the name of who makes it, recorded in the checkpoint's history");
        }
    }

    private CheckpointItem withCheckpoint(StoredCheckpoint c) {
        return new CheckpointItem(group, partition, Optional.of(c), lease, others);
    }

    private CheckpointItem withLease(Lease l) {
        return new CheckpointItem(group, partition, checkpoint, Optional.ofNullable(l), others);
    }

    public static CheckpointItem from(String group, PartitionId partition, Optional<Tip> tip) {
        CheckpointItem item = empty(group, partition);
        List<Unfold> others = new ArrayList<>();
        for (StoredUnfold u : tip.map(Tip::unfolds).orElse(List.of())) {
            String where = tip.get().stream().value();
            if (u.type().equals(CHECKPOINT)) {
                CheckpointBody c = Json.parse(where, u.type(), u.data(), CheckpointBody.class);
                item = item.withCheckpoint(new StoredCheckpoint(group, partition, new Checkpoint(c.pos()), Instant.parse(c.at()), c.by()));
            } else if (u.type().equals(LEASE)) {
                LeaseBody l = Json.parse(where, u.type(), u.data(), LeaseBody.class);
                item = item.withLease(new Lease(group, partition, l.owner(), l.token(), Instant.parse(l.expiresAt())));
            } else {
                others.add(new Unfold(u.type(), u.data(), u.meta()));
            }
        }
        return new CheckpointItem(group, partition, item.checkpoint, item.lease, List.copyOf(others));
    }

    public List<Unfold> unfolds() {
        List<Unfold> out = new ArrayList<>();
        checkpoint.ifPresent(c -> out.add(new Unfold(CHECKPOINT, Json.bytes(new CheckpointBody(c.checkpoint().value(),
                c.committedAt().toString(), c.committedBy())), null)));
        lease.ifPresent(l -> out.add(new Unfold(LEASE, Json.bytes(new LeaseBody(l.owner(), l.token(), l.expiresAt().toString())), null)));
        out.addAll(others);
        return out;
    }

    public static EventData encode(CheckpointOverride o) {
        OverriddenBody body = new OverriddenBody(o.from() == null ? null : o.from().value(), o.to().value(), o.reason(),
                o.at().toString(), o.by());
        return new EventData(OVERRIDDEN, Json.bytes(body), null, null, null, o.at());
    }

    public static CheckpointOverride decode(String where, byte[] data) {
        OverriddenBody o = Json.parse(where, OVERRIDDEN, data, OverriddenBody.class);
        return new CheckpointOverride(Instant.parse(o.at()), o.from() == null ? null : new Checkpoint(o.from()),
                new Checkpoint(o.to()), o.reason(), o.by());
    }

    private record CheckpointBody(long pos, String at, String by) {}

    private record LeaseBody(String owner, String token, String expiresAt) {}

    /** @param from null when no checkpoint was stored */
    private record OverriddenBody(Long from, long to, String reason, String at, String by) {}
}
