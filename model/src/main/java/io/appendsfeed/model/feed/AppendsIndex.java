package io.appendsfeed.model.feed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.model.Decider;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.StoreClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * {@code $AppendsIndex-0}: stream name, events and their JSON, fold, decisions, and the service over the {@link Decider}.
 *
 * <p>Invariants: the index is created with a {@code Started} at epoch 0 for every partition, which records the
 * partition count (it never changes); each epoch that becomes active gets a {@code Started}, and epochs only move
 * forwards. Every append carries a {@code Snapshotted} unfold at the new version, so that loading is one read of the Tip.
 */
public final class AppendsIndex {

    public static final StreamName STREAM = FeedStreams.INDEX;

    private AppendsIndex() {}

    /** JSON with the other implementations' field names: {@code Started {"partition":0,"epoch":1}}, {@code Snapshotted {"active":{"0":1}}}. */
    public sealed interface IndexEvent {
        String STARTED = "Started";
        String SNAPSHOTTED = "Snapshotted";

        String type();

        /** An epoch became the active one of its partition. */
        record Started(PartitionId partition, EpochId epoch) implements IndexEvent {
            public Started {
                Objects.requireNonNull(partition, "partition");
                Objects.requireNonNull(epoch, "epoch");
            }

            public String type() { return STARTED; }
        }

        /** The active epoch of every partition known so far. */
        record Snapshotted(Map<PartitionId, EpochId> active) implements IndexEvent {
            public Snapshotted {
                active = Collections.unmodifiableSortedMap(new TreeMap<>(active));
            }

            public String type() { return SNAPSHOTTED; }
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    public static byte[] encode(IndexEvent event) {
        ObjectNode o = JSON.createObjectNode();
        if (event instanceof IndexEvent.Started started) {
            o.put("partition", started.partition().value()).put("epoch", started.epoch().value());
        } else if (event instanceof IndexEvent.Snapshotted snapshotted) {
            ObjectNode active = o.putObject("active");
            snapshotted.active().forEach((p, e) -> active.put(Integer.toString(p.value()), e.value()));
        }
        return o.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Unknown fields are ignored; a {@link FeedFormatException} for an unknown type or a body that does not fit it. */
    public static IndexEvent decode(String type, byte[] data) {
        JsonNode o;
        try {
            o = data == null || data.length == 0 ? JSON.createObjectNode() : JSON.readTree(data);
        } catch (IOException e) {
            throw new FeedFormatException(type, type + " body is not JSON", e);
        }
        switch (type) {
            case IndexEvent.STARTED -> {
                JsonNode p = o.path("partition"), e = o.path("epoch");
                if (!p.canConvertToInt() || !e.canConvertToInt()) {
                    throw new FeedFormatException(type, type + " has no integer field '" + (p.canConvertToInt() ? "epoch" : "partition") + "'");
                }
                return new IndexEvent.Started(PartitionId.of(p.intValue()), EpochId.of(e.intValue()));
            }
            case IndexEvent.SNAPSHOTTED -> {
                JsonNode active = o.path("active");
                if (!active.isObject()) {
                    throw new FeedFormatException(type, type + " has no object field 'active'");
                }
                Map<PartitionId, EpochId> map = new TreeMap<>();
                for (Map.Entry<String, JsonNode> f : active.properties()) {
                    if (!f.getKey().matches("\\d{1,9}") || !f.getValue().canConvertToInt() || f.getValue().intValue() < 0) {
                        throw new FeedFormatException(type, type + " has an invalid entry in 'active': " + f.getKey() + " -> " + f.getValue());
                    }
                    map.put(PartitionId.of(Integer.parseInt(f.getKey())), EpochId.of(f.getValue().intValue()));
                }
                return new IndexEvent.Snapshotted(map);
            }
            default -> throw new FeedFormatException(type, "unknown index event type '" + type
                    + "': the index was written by a newer or different format; upgrade appendsfeed to read it");
        }
    }

    /** The active epoch of every partition named; one not named is at epoch 0 (some writers record {@code Started} from epoch 1 on). */
    public record IndexState(SortedMap<PartitionId, EpochId> active) {
        public static final IndexState EMPTY = new IndexState(new TreeMap<>());

        public IndexState {
            active = Collections.unmodifiableSortedMap(new TreeMap<>(active));
        }

        /** Epochs only move forwards: a stale or repeated {@code Started} changes nothing. */
        public IndexState evolve(IndexEvent event) {
            TreeMap<PartitionId, EpochId> next = new TreeMap<>(active);
            Map<PartitionId, EpochId> started = event instanceof IndexEvent.Started s ? Map.of(s.partition(), s.epoch())
                    : ((IndexEvent.Snapshotted) event).active();
            started.forEach((p, e) -> next.merge(p, e, (a, b) -> a.compareTo(b) >= 0 ? a : b));
            return new IndexState(next);
        }

        public static IndexState fold(Iterable<? extends IndexEvent> events) {
            IndexState s = EMPTY;
            for (IndexEvent e : events) {
                s = s.evolve(e);
            }
            return s;
        }

        public EpochId activeEpoch(PartitionId partition) {
            return active.getOrDefault(partition, EpochId.ZERO);
        }

        public boolean isCreated() {
            return !active.isEmpty();
        }

        /** One more than the highest partition named, 1 when none is. */
        public int partitions() {
            return active.isEmpty() ? 1 : active.lastKey().value() + 1;
        }
    }

    static final Decider.Category<IndexState, IndexEvent> CATEGORY = new Decider.Category<>(IndexState.EMPTY,
            (s, e) -> s.evolve(decode(e.type(), e.data())), e -> EventData.of(e.type(), encode(e)),
            new Decider.Snapshot<>(IndexEvent.SNAPSHOTTED, s -> encode(new IndexEvent.Snapshotted(s.active())), d -> IndexState.EMPTY.evolve(decode(IndexEvent.SNAPSHOTTED, d))));
    /** Writers of the index are few (one append per epoch closed): a lost race retries at once until it wins. */
    private static final Decider.Conflicts CONFLICTS = new Decider.Conflicts(Integer.MAX_VALUE, Duration.ZERO);

    private static Decider<IndexState, IndexEvent> decider(StoreClient index) {
        return new Decider<>(index, CATEGORY, CONFLICTS);
    }

    /** One read of the Tip, as a rule; a missing index is {@link IndexState#EMPTY}. */
    public static Decider.Loaded<IndexState> load(StoreClient index, boolean consistent) {
        return decider(index).load(STREAM, consistent);
    }

    /** Eventually consistent: one partition at epoch 0 when there is no index yet. */
    public static IndexState read(StoreClient index) {
        return load(index, false).state();
    }

    /** Creates the index for {@code partitions} unless it exists; returns what is there either way (the first creator's count). */
    public static Decider.Loaded<IndexState> create(StoreClient index, int partitions) {
        return decider(index).transact(STREAM, new Decider.Loaded<>(IndexState.EMPTY, 0), s -> {
            List<IndexEvent> started = new ArrayList<>();
            for (int p = 0; !s.isCreated() && p < partitions; p++) {
                started.add(new IndexEvent.Started(PartitionId.of(p), EpochId.ZERO));
            }
            return new Decider.Decision<>(null, started);
        }).loaded();
    }

    /**
     * Records that {@code epoch} is the active epoch of {@code partition} unless the index names it or a later one.
     *
     * @param known the index as the caller last loaded or wrote it (no read while current); null to load it first
     */
    public static Decider.Loaded<IndexState> start(StoreClient index, Decider.Loaded<IndexState> known, PartitionId partition, EpochId epoch) {
        return decider(index).transact(STREAM, known, s -> new Decider.Decision<>(null,
                s.isCreated() && s.activeEpoch(partition).compareTo(epoch) >= 0 ? List.of() : List.of(new IndexEvent.Started(partition, epoch)))).loaded();
    }
}
