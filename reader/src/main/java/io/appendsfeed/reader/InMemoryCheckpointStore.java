package io.appendsfeed.reader;

import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.internal.CheckpointItem;
import io.appendsfeed.reader.internal.CheckpointItem.Decision;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Checkpoints and leases in this process's memory, taking the same decisions as
 * {@link DynamoCheckpointStore} ({@link CheckpointItem}) under one lock: for tests and for readers
 * whose handlers keep their own position.
 */
public final class InMemoryCheckpointStore extends CheckpointItems {

    private record Key(String group, PartitionId partition) {}

    private final Map<Key, CheckpointItem> items = new HashMap<>();
    private final Map<Key, List<CheckpointOverride>> overrides = new HashMap<>();
    /** Live instances per group: owner to the end of its heartbeat. */
    private final Map<String, Map<String, Instant>> instances = new HashMap<>();

    public InMemoryCheckpointStore(Clock clock) {
        super(clock);
    }

    public InMemoryCheckpointStore() {
        this(Clock.systemUTC());
    }

    @Override
    synchronized <T> T transact(String group, PartitionId partition, Function<CheckpointItem, Decision<T>> decide) {
        Key key = new Key(FeedStreams.checkGroup(group), partition);
        Decision<T> d = decide.apply(load(group, partition));
        if (d.next() != null) {
            items.put(key, d.next());
        }
        if (d.overridden() != null) {
            overrides.computeIfAbsent(key, k -> new ArrayList<>()).add(d.overridden());
        }
        return d.result();
    }

    @Override
    synchronized CheckpointItem load(String group, PartitionId partition) {
        return items.getOrDefault(new Key(group, partition), CheckpointItem.empty(group, partition));
    }

    @Override
    public synchronized List<CheckpointOverride> overrides(String group, PartitionId partition) {
        return List.copyOf(overrides.getOrDefault(new Key(group, partition), List.of()));
    }

    @Override
    public synchronized List<StoredCheckpoint> list(String group) {
        TreeMap<PartitionId, StoredCheckpoint> byPartition = new TreeMap<>();
        items.forEach((k, item) -> item.checkpoint().filter(c -> k.group().equals(group))
                .ifPresent(c -> byPartition.put(k.partition(), c)));
        return List.copyOf(byPartition.values());
    }

    @Override
    public synchronized List<String> groups() {
        return items.entrySet().stream().filter(e -> e.getValue().checkpoint().isPresent() || e.getValue().lease().isPresent())
                .map(e -> e.getKey().group()).distinct().sorted().toList();
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
        instances.getOrDefault(group, new TreeMap<>()).remove(owner);
    }
}
