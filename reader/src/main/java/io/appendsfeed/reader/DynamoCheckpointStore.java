package io.appendsfeed.reader;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.IndexState;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.store.StoredUnfold;
import io.appendsfeed.model.store.Unfold;
import io.appendsfeed.model.store.Tip;
import io.appendsfeed.reader.internal.CheckpointItem;
import io.appendsfeed.reader.internal.FeedIndex;
import io.appendsfeed.reader.internal.Json;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Checkpoints and leases in the index table, one stream per group and partition:
 * {@code $ReaderCheckpoint-<group>_<partition>}. Its Tip's unfolds hold the checkpoint
 * ({@code Checkpoint {pos, at, by}}) and the lease ({@code Lease {owner, token, expiresAt}});
 * commits, renewals and takeovers rewrite them with unfold-only writes conditioned on the Tip's
 * etag, so the stream does not grow. Because checkpoint and lease share one item, a commit fenced
 * by a lease is refused atomically once the lease changed hands. Overrides are appended as
 * {@code Overridden {from, to, reason, at, by}} events, the checkpoint's history. Groups are listed
 * in {@code $ReaderGroups-0} ({@code Registered {group}}) when their first checkpoint stream is made.
 * A group's live instances are the unfolds {@code Instance {owner, until}} of the Tip of
 * {@code $ReaderInstances-<group>}, rewritten (unfold-only, on the etag) by each instance's
 * heartbeat, which also drops the instances whose time ran out.
 */
public final class DynamoCheckpointStore implements CheckpointStore, LeaseStore {

    /** Stream listing the groups. Part of the storage format. */
    public static final StreamName GROUPS = StreamName.of("$ReaderGroups", "0");
    /** Category of the streams holding each group's live instances. Part of the storage format. */
    public static final String INSTANCES_CATEGORY = "$ReaderInstances";
    /** Unfold type of one live instance. Part of the storage format. */
    public static final String INSTANCE = "Instance";
    private static final int MAX_CONFLICTS = 20;

    private final StoreClient index;
    private final Clock clock;

    /** @param dynamo the caller's client; it is not closed here */
    public DynamoCheckpointStore(DynamoDbClient dynamo, String indexTable, Clock clock) {
        this(new StoreClient(dynamo, StoreConfig.builder(indexTable).reservedStreams(true).clock(clock).build()), clock);
    }

    /** @param index a client of the index table with {@code reservedStreams(true)} */
    public DynamoCheckpointStore(StoreClient index, Clock clock) {
        this.index = index;
        this.clock = clock;
    }

    @Override
    public Optional<StoredCheckpoint> read(String group, PartitionId partition) {
        return load(group, partition).checkpoint();
    }

    @Override
    public CommitResult commit(String group, PartitionId partition, Checkpoint to, String by, Lease fence) {
        return mutate(group, partition, item -> {
            if (fence != null && (item.lease().isEmpty() || !item.lease().get().token().equals(fence.token()))) {
                return Decision.none(new CommitResult.LeaseLost(item.lease().map(Lease::owner).orElse(null)));
            }
            Optional<StoredCheckpoint> current = item.checkpoint();
            if (current.isPresent() && current.get().checkpoint().compareTo(to) > 0) {
                return Decision.none(new CommitResult.Behind(current.get()));
            }
            StoredCheckpoint next = new StoredCheckpoint(group, partition, to, clock.instant(), by);
            return Decision.write(item.withCheckpoint(next), null, new CommitResult.Committed(next));
        });
    }

    @Override
    public StoredCheckpoint override(String group, PartitionId partition, Checkpoint to, String reason) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("an override needs a reason, recorded in the checkpoint's history");
        }
        return mutate(group, partition, item -> {
            Instant now = clock.instant();
            StoredCheckpoint next = new StoredCheckpoint(group, partition, to, now, "override");
            ObjectNode o = Json.object();
            item.checkpoint().ifPresentOrElse(c -> o.put("from", c.checkpoint().value()), () -> o.putNull("from"));
            o.put("to", to.value()).put("reason", reason).put("at", now.toString()).put("by", "override");
            // the lease is revoked so that a reader holding the partition stops and restarts from `to`
            return Decision.write(item.withCheckpoint(next).withLease(null), new EventData(CheckpointItem.OVERRIDDEN, Json.bytes(o),
                    null, null, null, now), next);
        });
    }

    @Override
    public List<CheckpointOverride> overrides(String group, PartitionId partition) {
        StreamName stream = FeedStreams.checkpoint(group, partition);
        List<CheckpointOverride> out = new ArrayList<>();
        for (StoredEvent e : index.readAll(stream, Read.forward(0).strongly())) {
            if (!e.type().equals(CheckpointItem.OVERRIDDEN)) {
                continue;
            }
            JsonNode o = Json.parse(stream.value(), e.type(), e.data());
            JsonNode from = o.get("from");
            out.add(new CheckpointOverride(Json.instant(stream.value(), o, "at"),
                    from == null || from.isNull() ? null : new Checkpoint(from.longValue()),
                    new Checkpoint(Json.number(stream.value(), o, "to")), Json.text(stream.value(), o, "reason"),
                    Json.text(stream.value(), o, "by")));
        }
        return out;
    }

    /** Reads the partition count from the index, then each partition's checkpoint. */
    @Override
    public List<StoredCheckpoint> list(String group) {
        int partitions = new FeedIndex(index).read().partitions();
        List<StoredCheckpoint> out = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            read(group, PartitionId.of(p)).ifPresent(out::add);
        }
        return out;
    }

    @Override
    public List<String> groups() {
        TreeSet<String> groups = new TreeSet<>();
        for (StoredEvent e : index.readAll(GROUPS, Read.forward(0).strongly())) {
            groups.add(Json.text(GROUPS.value(), Json.parse(GROUPS.value(), e.type(), e.data()), "group"));
        }
        return List.copyOf(groups);
    }

    @Override
    public Optional<Lease> tryAcquire(String group, PartitionId partition, String owner, Duration timeout) {
        return mutate(group, partition, item -> {
            Optional<Lease> held = item.lease();
            Instant now = clock.instant();
            if (held.isPresent() && !held.get().owner().equals(owner) && held.get().expiresAt().isAfter(now)) {
                return Decision.none(Optional.<Lease>empty());
            }
            String token = held.isPresent() && held.get().owner().equals(owner) ? held.get().token() : UUID.randomUUID().toString();
            Lease lease = new Lease(group, partition, owner, token, now.plus(timeout));
            return Decision.write(item.withLease(lease), null, Optional.of(lease));
        });
    }

    @Override
    public Optional<Lease> renew(Lease lease, Duration timeout) {
        return mutate(lease.group(), lease.partition(), item -> {
            if (item.lease().isEmpty() || !item.lease().get().token().equals(lease.token())) {
                return Decision.none(Optional.<Lease>empty());
            }
            Lease renewed = new Lease(lease.group(), lease.partition(), lease.owner(), lease.token(), clock.instant().plus(timeout));
            return Decision.write(item.withLease(renewed), null, Optional.of(renewed));
        });
    }

    @Override
    public void release(Lease lease) {
        mutate(lease.group(), lease.partition(), item -> {
            if (item.lease().isEmpty() || !item.lease().get().token().equals(lease.token())) {
                return Decision.none(Boolean.FALSE);
            }
            return Decision.write(item.withLease(null), null, Boolean.TRUE);
        });
    }

    @Override
    public Optional<Lease> current(String group, PartitionId partition) {
        return load(group, partition).lease();
    }

    private CheckpointItem load(String group, PartitionId partition) {
        StreamName stream = FeedStreams.checkpoint(group, partition);
        return CheckpointItem.from(group, partition, index.readTip(stream, true));
    }

    private record Decision<T>(CheckpointItem next, EventData event, T result) {
        static <T> Decision<T> none(T result) {
            return new Decision<>(null, null, result);
        }

        static <T> Decision<T> write(CheckpointItem next, EventData event, T result) {
            return new Decision<>(next, event, result);
        }
    }

    /** Read the Tip, decide, write conditioned on its etag; on a conflict read again and decide again. */
    private <T> T mutate(String group, PartitionId partition, Function<CheckpointItem, Decision<T>> decide) {
        StreamName stream = FeedStreams.checkpoint(group, partition);
        for (int attempt = 1; ; attempt++) {
            Optional<Tip> tip = index.readTip(stream, true);
            CheckpointItem item = CheckpointItem.from(group, partition, tip);
            Decision<T> d = decide.apply(item);
            if (d.next() == null) {
                return d.result();
            }
            if (tip.isEmpty()) {
                register(group); // first, so that a group with a checkpoint is always listed
            }
            Expected expected = tip.map(t -> Expected.etag(t.etag())).orElse(Expected.noStream());
            AppendResult r = d.event() == null
                    ? index.writeUnfolds(stream, expected, d.next().unfolds())
                    : index.append(stream, expected, List.of(d.event()), d.next().unfolds());
            if (r instanceof AppendResult.Written) {
                return d.result();
            }
            if (attempt >= MAX_CONFLICTS) {
                throw new IllegalStateException(stream + " changed under " + attempt
                        + " attempts in a row; too many writers on one checkpoint. Nothing was written by this call");
            }
        }
    }

    private void register(String group) {
        if (groups().contains(group)) {
            return;
        }
        ObjectNode o = Json.object().put("group", group);
        AppendResult r = index.append(GROUPS, Expected.any(), List.of(new EventData("Registered", Json.bytes(o), null, null, null, null)));
        if (r instanceof AppendResult.Conflict) {
            throw new IllegalStateException("could not register group " + group + " in " + GROUPS
                    + ": other writers kept changing it; nothing else was written, try again");
        }
    }

    @Override
    public List<String> heartbeat(String group, String owner, Duration timeout) {
        return changeInstances(group, owner, true, timeout);
    }

    @Override
    public void leave(String group, String owner) {
        changeInstances(group, owner, false, Duration.ZERO);
    }

    /** Rewrites the instances Tip with {@code owner} present (until now + timeout) or absent, expired ones dropped. */
    private List<String> changeInstances(String group, String owner, boolean present, Duration timeout) {
        StreamName stream = StreamName.of(INSTANCES_CATEGORY, FeedStreams.checkGroup(group));
        for (int attempt = 1; ; attempt++) {
            Optional<Tip> tip = index.readTip(stream, true);
            Instant now = clock.instant();
            TreeMap<String, Instant> live = new TreeMap<>();
            List<Unfold> others = new ArrayList<>();
            for (StoredUnfold u : tip.map(Tip::unfolds).orElse(List.of())) {
                if (!u.type().equals(INSTANCE)) {
                    others.add(new Unfold(u.type(), u.data(), u.meta())); // a newer writer's: carried over
                    continue;
                }
                JsonNode o = Json.parse(stream.value(), u.type(), u.data());
                Instant until = Json.instant(stream.value(), o, "until");
                if (until.isAfter(now)) {
                    live.put(Json.text(stream.value(), o, "owner"), until);
                }
            }
            if (present) {
                live.put(owner, now.plus(timeout));
            } else if (live.remove(owner) == null) {
                return List.copyOf(live.keySet());
            }
            List<Unfold> unfolds = new ArrayList<>(others);
            live.forEach((o, until) -> unfolds.add(new Unfold(INSTANCE,
                    Json.bytes(Json.object().put("owner", o).put("until", until.toString())), null)));
            Expected expected = tip.map(t -> Expected.etag(t.etag())).orElse(Expected.noStream());
            if (index.writeUnfolds(stream, expected, unfolds) instanceof AppendResult.Written) {
                return List.copyOf(live.keySet());
            }
            if (attempt >= MAX_CONFLICTS) {
                throw new IllegalStateException(stream + " changed under " + attempt
                        + " attempts in a row; too many instances in one group. Nothing was written by this call");
            }
        }
    }

    /** For {@link #list}: the index fold, exposed so callers can learn the partition count too. */
    public IndexState indexState() {
        return new FeedIndex(index).read();
    }
}
