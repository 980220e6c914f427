package io.appendsfeed.reader;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Checkpoints and leases in this process's memory, with the same rules as
 * {@link DynamoCheckpointStore}: for tests and for readers whose handlers keep their own position.
 */
public final class InMemoryCheckpointStore implements CheckpointStore, LeaseStore {

    private record Key(String group, PartitionId partition) {}

    private final Clock clock;
    private final Map<Key, StoredCheckpoint> checkpoints = new HashMap<>();
    private final Map<Key, List<CheckpointOverride>> overrides = new HashMap<>();
    private final Map<Key, Lease> leases = new HashMap<>();
    /** Live instances per group: owner to the end of its heartbeat. */
    private final Map<String, Map<String, Instant>> instances = new HashMap<>();

    public InMemoryCheckpointStore(Clock clock) {
        this.clock = clock;
    }

    public InMemoryCheckpointStore() {
        this(Clock.systemUTC());
    }

    @Override
    public synchronized Optional<StoredCheckpoint> read(String group, PartitionId partition) {
        return Optional.ofNullable(checkpoints.get(new Key(group, partition)));
    }

    @Override
    public synchronized CommitResult commit(String group, PartitionId partition, Checkpoint to, String by, Lease fence) {
        Key key = new Key(FeedStreams.checkGroup(group), partition);
        if (fence != null) {
            Lease held = leases.get(key);
            if (held == null || !held.token().equals(fence.token())) {
                return new CommitResult.LeaseLost(held == null ? null : held.owner());
            }
        }
        StoredCheckpoint current = checkpoints.get(key);
        if (current != null && current.checkpoint().compareTo(to) > 0) {
            return new CommitResult.Behind(current);
        }
        StoredCheckpoint next = new StoredCheckpoint(group, partition, to, clock.instant(), by);
        checkpoints.put(key, next);
        return new CommitResult.Committed(next);
    }

    @Override
    public synchronized StoredCheckpoint override(String group, PartitionId partition, Checkpoint to, String reason) {
        return apply(group, partition, to, reason, DynamoCheckpointStore.OVERRIDE_BY, true);
    }

    @Override
    public synchronized CommitResult overrideHeld(String group, PartitionId partition, Checkpoint to, String reason, Lease lease) {
        DynamoCheckpointStore.checkOverride(reason, lease.owner());
        Lease held = leases.get(new Key(FeedStreams.checkGroup(group), partition));
        if (held == null || !held.token().equals(lease.token())) {
            return new CommitResult.LeaseLost(held == null ? null : held.owner());
        }
        return new CommitResult.Committed(apply(group, partition, to, reason, lease.owner(), false));
    }

    /**
     * Like {@link #override}, but only when the stored checkpoint is still {@code expected}, and
     * recorded as made by {@code by}: so that two operators, or an operator and a reader's commit,
     * never overwrite each other's move unseen.
     *
     * @param expected the checkpoint the caller saw; empty when it saw none stored
     * @param by who moves it (an operator's name), kept in the history
     * @return {@link OverrideResult.Applied}, or {@link OverrideResult.Moved} with what is stored
     *         now, when that is not {@code expected}: then nothing was written
     * @throws IllegalArgumentException when the reason or {@code by} is blank
     * @throws RuntimeException when the store cannot be written; the checkpoint is then unchanged
     */
    public synchronized OverrideResult overrideIf(String group, PartitionId partition, Optional<Checkpoint> expected, Checkpoint to,
                                                  String reason, String by) {
        DynamoCheckpointStore.checkOverride(reason, by);
        Optional<StoredCheckpoint> current = read(group, partition);
        if (!current.map(StoredCheckpoint::checkpoint).equals(expected)) {
            return new OverrideResult.Moved(current);
        }
        return new OverrideResult.Applied(apply(group, partition, to, reason, by, true));
    }

    /** @param revoke drop the lease (an operator's move), or keep it (the holder's own start position) */
    private StoredCheckpoint apply(String group, PartitionId partition, Checkpoint to, String reason, String by, boolean revoke) {
        DynamoCheckpointStore.checkOverride(reason, by);
        Key key = new Key(FeedStreams.checkGroup(group), partition);
        StoredCheckpoint current = checkpoints.get(key);
        Instant now = clock.instant();
        overrides.computeIfAbsent(key, k -> new ArrayList<>())
                .add(new CheckpointOverride(now, current == null ? null : current.checkpoint(), to, reason, by));
        StoredCheckpoint next = new StoredCheckpoint(group, partition, to, now, by);
        checkpoints.put(key, next);
        if (revoke) {
            leases.remove(key); // a reader holding the partition stops and restarts from `to`
        }
        return next;
    }

    @Override
    public synchronized List<CheckpointOverride> overrides(String group, PartitionId partition) {
        return List.copyOf(overrides.getOrDefault(new Key(group, partition), List.of()));
    }

    @Override
    public synchronized List<StoredCheckpoint> list(String group) {
        TreeMap<PartitionId, StoredCheckpoint> byPartition = new TreeMap<>();
        checkpoints.forEach((k, v) -> {
            if (k.group().equals(group)) {
                byPartition.put(k.partition(), v);
            }
        });
        return List.copyOf(byPartition.values());
    }

    @Override
    public synchronized List<String> groups() {
        TreeSet<String> groups = new TreeSet<>();
        checkpoints.keySet().forEach(k -> groups.add(k.group()));
        leases.keySet().forEach(k -> groups.add(k.group()));
        return List.copyOf(groups);
    }

    @Override
    public synchronized Optional<Lease> tryAcquire(String group, PartitionId partition, String owner, Duration timeout) {
        Key key = new Key(FeedStreams.checkGroup(group), partition);
        Lease held = leases.get(key);
        Instant now = clock.instant();
        if (held != null && !held.owner().equals(owner) && held.expiresAt().isAfter(now)) {
            return Optional.empty();
        }
        String token = held != null && held.owner().equals(owner) ? held.token() : UUID.randomUUID().toString();
        Lease lease = new Lease(group, partition, owner, token, now.plus(timeout));
        leases.put(key, lease);
        return Optional.of(lease);
    }

    @Override
    public synchronized Optional<Lease> renew(Lease lease, Duration timeout) {
        Key key = new Key(lease.group(), lease.partition());
        Lease held = leases.get(key);
        if (held == null || !held.token().equals(lease.token())) {
            return Optional.empty();
        }
        Lease renewed = new Lease(lease.group(), lease.partition(), lease.owner(), lease.token(), clock.instant().plus(timeout));
        leases.put(key, renewed);
        return Optional.of(renewed);
    }

    @Override
    public synchronized void release(Lease lease) {
        Key key = new Key(lease.group(), lease.partition());
        Lease held = leases.get(key);
        if (held != null && held.token().equals(lease.token())) {
            leases.remove(key);
        }
    }

    @Override
    public synchronized Optional<Lease> current(String group, PartitionId partition) {
        return Optional.ofNullable(leases.get(new Key(group, partition)));
    }

    @Override
    public synchronized List<String> heartbeat(String group, String owner, Duration timeout) {
        Instant now = clock.instant();
        Map<String, Instant> live = instances.computeIfAbsent(FeedStreams.checkGroup(group), g -> new TreeMap<>());
        live.values().removeIf(until -> !until.isAfter(now));
        live.put(owner, now.plus(timeout));
        return List.copyOf(live.keySet());
    }

    @Override
    public synchronized void leave(String group, String owner) {
        Map<String, Instant> live = instances.get(group);
        if (live != null) {
            live.remove(owner);
        }
    }
}
