package io.appendsfeed.reader;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.AppendsIndex;
import io.appendsfeed.model.feed.AppendsIndex.IndexState;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.store.StoredUnfold;
import io.appendsfeed.model.store.Tip;
import io.appendsfeed.model.store.Unfold;
import io.appendsfeed.reader.internal.CheckpointItem;
import io.appendsfeed.reader.internal.CheckpointItem.Decision;
import io.appendsfeed.reader.internal.Json;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.IntStream;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Checkpoints and leases in the index table, one stream per group and partition,
 * {@code $ReaderCheckpoint-<group>_<partition>} (its format and decisions: {@link CheckpointItem}).
 * Every change reads the Tip, decides, and writes unfold-only (the stream does not grow) conditioned
 * on the Tip's etag; on a conflict it reads and decides again. Because checkpoint and lease share
 * one item, a commit fenced by a lease is refused atomically once the lease changed hands. Groups
 * are listed in {@code $ReaderGroups-0} ({@code Registered {group}}) when their first checkpoint
 * stream is made, and {@code Deleted {group, reason, by, at, checkpoints}} when
 * {@link #deleteGroup} deletes one. A group's live instances are the unfolds
 * {@code Instance {owner, until}} of the Tip of {@code $ReaderInstances-<group>}, rewritten the
 * same way by each instance's heartbeat, which also drops the instances whose time ran out.
 */
public final class DynamoCheckpointStore extends CheckpointItems {

    /** Stream listing the groups. Part of the storage format. */
    public static final StreamName GROUPS = StreamName.of("$ReaderGroups", "0");
    /** Category of the streams holding each group's live instances. Part of the storage format. */
    public static final String INSTANCES_CATEGORY = "$ReaderInstances";
    /** Unfold type of one live instance. Part of the storage format. */
    public static final String INSTANCE = "Instance";
    /** Event types of {@link #GROUPS}: a group's first checkpoint stream was made; a group was deleted. Part of the storage format. */
    static final String REGISTERED = "Registered";
    static final String DELETED = "Deleted";
    /** Conflicts in a row before a change gives up: only many writers on one stream get there. */
    private static final int MAX_CONFLICTS = 20;

    private final StoreClient index;

    /** @param dynamo the caller's client; it is not closed here */
    public DynamoCheckpointStore(DynamoDbClient dynamo, String indexTable, Clock clock) {
        this(new StoreClient(dynamo, StoreConfig.builder(indexTable).reservedStreams(true).clock(clock).build()), clock);
    }

    /** @param index a client of the index table with {@code reservedStreams(true)} */
    public DynamoCheckpointStore(StoreClient index, Clock clock) {
        super(clock);
        this.index = index;
    }

    @Override
    public List<CheckpointOverride> overrides(String group, PartitionId partition) {
        StreamName stream = FeedStreams.checkpoint(group, partition);
        return index.readAll(stream, Read.forward(0).strongly()).stream().filter(e -> e.type().equals(CheckpointItem.OVERRIDDEN))
                .map(e -> CheckpointItem.decode(stream.value(), e.data())).toList();
    }

    /** Reads the partition count from the index, then each partition's checkpoint. */
    @Override
    public List<StoredCheckpoint> list(String group) {
        return IntStream.range(0, indexState().partitions()).mapToObj(p -> read(group, PartitionId.of(p))).flatMap(Optional::stream).toList();
    }

    /** Groups registered and not deleted since. */
    @Override
    public List<String> groups() {
        TreeSet<String> groups = new TreeSet<>();
        for (StoredEvent e : index.readAll(GROUPS, Read.forward(0).strongly())) {
            String group = Json.parse(GROUPS.value(), e.type(), e.data(), GroupBody.class).group();
            if (e.type().equals(DELETED)) {
                groups.remove(group);
            } else {
                groups.add(group);
            }
        }
        return List.copyOf(groups);
    }

    /**
     * Deletes a consumer group: records its deletion and checkpoints in {@link #GROUPS} first, then deletes
     * its checkpoint and parked streams, so that a group of the same name starts afresh. Refused while a
     * reader holds a live lease on one of its partitions. Running it again after a failure finishes the job.
     *
     * @return {@link GroupDeletion.Deleted}, or {@link GroupDeletion.Leased} naming the live leases (nothing written)
     * @throws IllegalArgumentException when the reason or {@code by} is blank
     * @throws RuntimeException from DynamoDB; what was deleted stays deleted, the record is written first
     */
    public GroupDeletion deleteGroup(String group, String reason, String by) {
        CheckpointItem.checkOverride(reason, by);
        FeedStreams.checkGroup(group);
        int partitions = indexState().partitions();
        Instant now = clock.instant();
        Map<PartitionId, Checkpoint> positions = new TreeMap<>();
        List<Lease> live = new ArrayList<>();
        for (int k = 0; k < partitions; k++) {
            CheckpointItem item = load(group, PartitionId.of(k));
            item.checkpoint().ifPresent(c -> positions.put(c.partition(), c.checkpoint()));
            item.lease().filter(l -> l.expiresAt().isAfter(now)).ifPresent(live::add);
        }
        if (!live.isEmpty()) {
            return new GroupDeletion.Leased(live);
        }
        Map<String, Long> checkpoints = new LinkedHashMap<>();
        positions.forEach((p, c) -> checkpoints.put(Integer.toString(p.value()), c.value()));
        DeletedBody body = new DeletedBody(group, reason, by, now.toString(), checkpoints);
        DynamoParkedStreams.append(index, GROUPS, new EventData(DELETED, Json.bytes(body), null, null, null, now));
        long items = 0;
        for (int k = 0; k < partitions; k++) {
            items += deleteItems(FeedStreams.checkpoint(group, PartitionId.of(k)));
        }
        items += deleteItems(DynamoParkedStreams.stream(group));
        return new GroupDeletion.Deleted(group, positions, items, now, by, reason);
    }

    /** The recorded deletions of a group, oldest first. */
    public List<GroupDeletion.Deleted> deletions(String group) {
        List<GroupDeletion.Deleted> out = new ArrayList<>();
        for (StoredEvent e : index.readAll(GROUPS, Read.forward(0).strongly())) {
            DeletedBody d = e.type().equals(DELETED) ? Json.parse(GROUPS.value(), e.type(), e.data(), DeletedBody.class) : null;
            if (d != null && d.group().equals(group)) {
                Map<PartitionId, Checkpoint> positions = new TreeMap<>();
                d.checkpoints().forEach((p, c) -> positions.put(PartitionId.of(Integer.parseInt(p)), new Checkpoint(c)));
                out.add(new GroupDeletion.Deleted(group, positions, 0, Instant.parse(d.at()), d.by(), d.reason()));
            }
        }
        return out;
    }

    /** Every item of a stream (Tip and calves), one DeleteItem each; returns how many there were. */
    private long deleteItems(StreamName stream) {
        DynamoDbClient dynamo = index.dynamo();
        String table = index.config().table();
        long deleted = 0;
        for (Map<String, AttributeValue> key : dynamo.queryPaginator(q -> q.tableName(table).keyConditionExpression("#p = :p")
                .projectionExpression("#p, #i").expressionAttributeNames(Map.of("#p", "p", "#i", "i"))
                .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(stream.value()))).consistentRead(true)).items()) {
            dynamo.deleteItem(b -> b.tableName(table).key(key));
            deleted++;
        }
        return deleted;
    }

    @Override
    CheckpointItem load(String group, PartitionId partition) {
        return CheckpointItem.from(group, partition, index.readTip(FeedStreams.checkpoint(group, partition), true));
    }

    @Override
    <T> T transact(String group, PartitionId partition, Function<CheckpointItem, Decision<T>> decide) {
        StreamName stream = FeedStreams.checkpoint(group, partition);
        return rewrite(stream, "writers on one checkpoint", tip -> {
            Decision<T> d = decide.apply(CheckpointItem.from(group, partition, tip));
            if (d.next() == null) {
                return new Attempt<>(d.result(), null);
            }
            if (tip.isEmpty()) {
                register(group); // first, so that a group with a checkpoint is always listed
            }
            return new Attempt<>(d.result(), expected -> d.overridden() == null
                    ? index.writeUnfolds(stream, expected, d.next().unfolds())
                    : index.append(stream, expected, List.of(CheckpointItem.encode(d.overridden())), d.next().unfolds()));
        });
    }

    /** What one attempt decided: its result, and the write that makes it so (null: nothing to write). */
    private record Attempt<T>(T result, Function<Expected, AppendResult> write) {}

    /**
     * Reads the Tip, decides, and writes conditioned on its etag; on a conflict reads again and decides again.
     *
     * @throws IllegalStateException after {@link #MAX_CONFLICTS} conflicts in a row; nothing was written by this call
     */
    private <T> T rewrite(StreamName stream, String crowd, Function<Optional<Tip>, Attempt<T>> decide) {
        for (int attempt = 1; ; attempt++) {
            Optional<Tip> tip = index.readTip(stream, true);
            Attempt<T> a = decide.apply(tip);
            // absent, not version 0: a Tip another instance created meanwhile (version 0 too: unfolds only) must conflict
            Expected expected = tip.map(t -> Expected.etag(t.etag())).orElse(Expected.absent());
            if (a.write() == null || a.write().apply(expected) instanceof AppendResult.Written) {
                return a.result();
            }
            if (attempt >= MAX_CONFLICTS) {
                throw new IllegalStateException(stream + " changed under " + attempt + " attempts in a row; too many " + crowd
                        + ". Nothing was written by this call");
            }
        }
    }

    private void register(String group) {
        if (!groups().contains(group)) {
            DynamoParkedStreams.append(index, GROUPS, new EventData(REGISTERED, Json.bytes(new GroupBody(group)), null, null, null, null));
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
        return rewrite(stream, "instances in one group", tip -> {
            Instant now = clock.instant();
            TreeMap<String, Instant> live = new TreeMap<>();
            List<Unfold> unfolds = new ArrayList<>();
            for (StoredUnfold u : tip.map(Tip::unfolds).orElse(List.of())) {
                if (!u.type().equals(INSTANCE)) {
                    unfolds.add(new Unfold(u.type(), u.data(), u.meta())); // a newer writer's: carried over
                    continue;
                }
                InstanceBody i = Json.parse(stream.value(), u.type(), u.data(), InstanceBody.class);
                if (Instant.parse(i.until()).isAfter(now)) {
                    live.put(i.owner(), Instant.parse(i.until()));
                }
            }
            if (present) {
                live.put(owner, now.plus(timeout));
            } else if (live.remove(owner) == null) {
                return new Attempt<>(List.copyOf(live.keySet()), null);
            }
            live.forEach((o, until) -> unfolds.add(new Unfold(INSTANCE, Json.bytes(new InstanceBody(o, until.toString())), null)));
            return new Attempt<>(List.copyOf(live.keySet()), expected -> index.writeUnfolds(stream, expected, unfolds));
        });
    }

    /** {@code Registered}, and the group of any event of {@link #GROUPS}. */
    private record GroupBody(String group) {}

    /** @param checkpoints by partition number, in partition order */
    private record DeletedBody(String group, String reason, String by, String at, Map<String, Long> checkpoints) {}

    private record InstanceBody(String owner, String until) {}

    /** The index fold, so that callers learn the partition count too. */
    public IndexState indexState() {
        return AppendsIndex.read(index);
    }

    /** What {@link DynamoCheckpointStore#deleteGroup} did. */
    public sealed interface GroupDeletion {

        /**
         * The group is gone, and its deletion recorded.
         *
         * @param checkpoints the checkpoints it had, by partition (kept in the record)
         * @param itemsDeleted items of its checkpoint and parked streams deleted (0 when read back from the record)
         */
        record Deleted(String group, Map<PartitionId, Checkpoint> checkpoints, long itemsDeleted, Instant at, String by, String reason)
                implements GroupDeletion {
            public Deleted {
                Objects.requireNonNull(group, "group");
                checkpoints = Map.copyOf(checkpoints);
                Objects.requireNonNull(at, "at");
                Objects.requireNonNull(by, "by");
                Objects.requireNonNull(reason, "reason");
            }
        }

        /** Nothing was written: readers hold these partitions' leases; stop them first. */
        record Leased(List<Lease> live) implements GroupDeletion {
            public Leased {
                live = List.copyOf(live);
            }
        }
    }
}
