package io.appendsfeed.reader;

import io.appendsfeed.model.feed.AppendsIndex;
import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.AppendsIndex.IndexEvent;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Partitioner;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreTables;
import io.appendsfeed.model.testing.LocalDynamo;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * Writes what the indexer would: real events to a fresh store table, and {@code Ingested} /
 * {@code Closed} epoch events and {@code Started} index events to a fresh index table, through
 * {@link StoreClient} and {@link AppendsEpoch}. Small epochs, under the test's control.
 */
public class FeedFixture {

    public final LocalDynamo local;
    public final String indexTable;
    public final String storeTable;
    public final StoreClient index;
    public final StoreClient store;
    public final int partitions;
    private final Map<StreamName, Long> versions = new HashMap<>();
    private final int[] epochs;
    private final long[] offsets;

    public FeedFixture(LocalDynamo local, int partitions) {
        this(local, partitions, StoreConfig.TIP_MAX_BYTES);
    }

    /** @param tipMaxBytes small values make the store calve often, so that reads and scans meet calves too */
    public FeedFixture(LocalDynamo local, int partitions, int tipMaxBytes) {
        this.local = local;
        this.partitions = partitions;
        this.indexTable = local.freshTableName("index");
        this.storeTable = local.freshTableName("store");
        StoreTables.ensure(local.dynamo(), indexTable, null);
        StoreTables.ensure(local.dynamo(), storeTable, StreamViewType.NEW_IMAGE);
        this.index = new StoreClient(local.dynamo(), StoreConfig.builder(indexTable).reservedStreams(true).build());
        this.store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).tipMaxBytes(tipMaxBytes).build());
        this.epochs = new int[partitions];
        this.offsets = new long[partitions];
        for (int p = 0; p < partitions; p++) {
            indexEvent(new IndexEvent.Started(PartitionId.of(p), EpochId.ZERO));
        }
    }

    /** Appends events with bodies {@code {"stream":..,"n":index}} to the store; returns their span. */
    public Span write(String stream, Instant at, String... types) {
        StreamName name = StreamName.parse(stream);
        long version = versions.getOrDefault(name, 0L);
        List<EventData> events = new ArrayList<>();
        for (int k = 0; k < types.length; k++) {
            EventData e = EventData.json(types[k], "{\"stream\":\"" + stream + "\",\"n\":" + (version + k) + "}");
            events.add(at == null ? e : e.withTimestamp(at));
        }
        AppendResult r = store.append(name, Expected.version(version), events);
        if (!(r instanceof AppendResult.Written w)) {
            throw new IllegalStateException("fixture append to " + stream + " conflicted: " + r);
        }
        versions.put(name, w.version());
        return new Span(name, version, List.of(types));
    }

    public Span write(String stream, String... types) {
        return write(stream, null, types);
    }

    /** Appends {@code Ingested} to the partition's current epoch, as the indexer would, indexed at {@code at}. */
    public void ingest(int partition, Instant at, List<Span> spans) {
        List<Span> add = new ArrayList<>();
        for (Span s : spans) {
            if (Partitioner.route(s.stream(), partitions).value() != partition) {
                throw new IllegalArgumentException(s.stream() + " belongs to partition "
                        + Partitioner.route(s.stream(), partitions) + ", not " + partition);
            }
            add.add(s);
        }
        epochEvent(partition, new EpochEvent.Ingested(add, List.of()), at);
    }

    /** Routes each span to its partition and ingests one epoch event per partition. */
    public void ingest(Instant at, Span... spans) {
        Map<Integer, List<Span>> byPartition = new HashMap<>();
        for (Span s : spans) {
            byPartition.computeIfAbsent(Partitioner.route(s.stream(), partitions).value(), p -> new ArrayList<>()).add(s);
        }
        byPartition.forEach((p, list) -> ingest(p, at, list));
    }

    public void ingest(Span... spans) {
        ingest((Instant) null, spans);
    }

    /** Closes the partition's current epoch and starts the next one. */
    public void closeEpoch(int partition) {
        closeEpoch(partition, null);
    }

    /** Closes the partition's current epoch, indexed at {@code at}, and starts the next one. */
    public void closeEpoch(int partition, Instant at) {
        epochEvent(partition, new EpochEvent.Closed(), at);
        epochs[partition]++;
        offsets[partition] = 0;
        indexEvent(new IndexEvent.Started(PartitionId.of(partition), EpochId.of(epochs[partition])));
    }

    /** Appends an epoch event of a type this version does not know. */
    public void unknownEpochEvent(int partition, String type) {
        appendEpoch(partition, new EventData(type, "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8), null, null, null, null));
    }

    /** Appends any epoch event to the partition's current epoch: the tests' way to plant a wrong index. */
    public void epochEvent(int partition, EpochEvent e) {
        epochEvent(partition, e, null);
    }

    private void epochEvent(int partition, EpochEvent e, Instant at) {
        EventData data = new EventData(e.type(), AppendsEpoch.encode(e), null, null, null, at);
        appendEpoch(partition, data);
    }

    private void appendEpoch(int partition, EventData data) {
        StreamName stream = FeedStreams.epoch(PartitionId.of(partition), EpochId.of(epochs[partition]));
        AppendResult r = index.append(stream, Expected.version(offsets[partition]), List.of(data));
        if (!(r instanceof AppendResult.Written)) {
            throw new IllegalStateException("fixture append to " + stream + " conflicted: " + r);
        }
        offsets[partition]++;
    }

    private void indexEvent(IndexEvent e) {
        index.append(FeedStreams.INDEX, Expected.any(), List.of(new EventData(e.type(), AppendsIndex.encode(e), null, null, null, null)));
    }

    /** A stream name of the given category that routes to {@code partition}. */
    public String streamIn(String category, int partition, int n) {
        int found = 0;
        for (int k = 0; ; k++) {
            String s = category + "-" + k;
            if (Partitioner.route(StreamName.parse(s), partitions).value() == partition && found++ == n) {
                return s;
            }
        }
    }

    /** Reader settings for tests: short intervals so that a suite stays fast. */
    public FeedReaderConfig.Builder config(String group) {
        return FeedReaderConfig.builder(group, indexTable, storeTable)
                .pollInterval(Duration.ofMillis(30))
                .commitInterval(Duration.ofMillis(100))
                .retryBackoff(Duration.ofMillis(10), Duration.ofMillis(100))
                .leaseTimeout(Duration.ofSeconds(3))
                .parkedPollInterval(Duration.ofMillis(200))
                .shutdownTimeout(Duration.ofSeconds(5));
    }
}
