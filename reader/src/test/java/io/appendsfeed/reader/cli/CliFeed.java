package io.appendsfeed.reader.cli;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.EpochEvent;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedCodec;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.IndexEvent;
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
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * A feed for CLI tests on DynamoDB Local: events appended to a fresh store table, and the epochs
 * an indexer would write to a fresh index table (through {@link StoreClient} and {@link FeedCodec}),
 * right or, on purpose, wrong. Runs {@code feed} with captured output and an environment map.
 */
final class CliFeed {

    /** What one run of {@code feed} printed and returned. */
    record Run(int exit, String out, String err) {}

    final LocalDynamo local;
    final String indexTable;
    final String storeTable;
    final StoreClient index;
    final StoreClient store;
    final int partitions;
    final Map<String, String> env = new HashMap<>();
    private final Map<StreamName, Long> versions = new HashMap<>();
    private final int[] epochs;
    private final long[] offsets;

    CliFeed(LocalDynamo local, int partitions) {
        this(local, partitions, StoreConfig.TIP_MAX_BYTES);
    }

    /** @param tipMaxBytes small values make the store calve often, so that scans meet calves too */
    CliFeed(LocalDynamo local, int partitions, int tipMaxBytes) {
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
        env.put("APPENDS_DYNAMODB_ENDPOINT", local.endpoint().toString());
        env.put("APPENDS_INDEX_TABLE", indexTable);
        env.put("APPENDS_STORE_TABLE", storeTable);
    }

    /** Runs {@code feed args...} as a user would, with this feed's environment. */
    Run feed(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = FeedCli.commandLine(env::get, new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    /** Appends events to the store; returns their span. */
    Span write(String stream, String... types) {
        StreamName name = StreamName.parse(stream);
        long version = versions.getOrDefault(name, 0L);
        List<EventData> events = new ArrayList<>();
        for (int k = 0; k < types.length; k++) {
            events.add(EventData.json(types[k], "{\"n\":" + (version + k) + "}"));
        }
        AppendResult r = store.append(name, Expected.version(version), events);
        if (!(r instanceof AppendResult.Written w)) {
            throw new IllegalStateException("append to " + stream + " conflicted: " + r);
        }
        versions.put(name, w.version());
        return new Span(name, version, List.of(types));
    }

    /** Writes the spans to the store and indexes them, one {@code Ingested} per partition, as the indexer would. */
    void writeAndIndex(Map<String, String[]> streams) {
        List<Span> spans = new ArrayList<>();
        streams.forEach((s, types) -> spans.add(write(s, types)));
        ingest(spans.toArray(Span[]::new));
    }

    /** Routes each span to its partition and appends one {@code Ingested} per partition. */
    void ingest(Span... spans) {
        Map<Integer, List<Span>> byPartition = new HashMap<>();
        for (Span s : spans) {
            byPartition.computeIfAbsent(Partitioner.route(s.stream(), partitions).value(), p -> new ArrayList<>()).add(s);
        }
        byPartition.forEach((p, list) -> epochEvent(p, new EpochEvent.Ingested(list, List.of())));
    }

    /** Appends any epoch event to the partition's current epoch: the tests' way to plant a wrong index. */
    void epochEvent(int partition, EpochEvent e) {
        StreamName stream = FeedStreams.epoch(PartitionId.of(partition), EpochId.of(epochs[partition]));
        EventData data = new EventData(e.type(), FeedCodec.encode(e), null, null, null, null);
        AppendResult r = index.append(stream, Expected.version(offsets[partition]), List.of(data));
        if (!(r instanceof AppendResult.Written)) {
            throw new IllegalStateException("append to " + stream + " conflicted: " + r);
        }
        offsets[partition]++;
    }

    /** Closes the partition's current epoch and starts the next, as the indexer would. */
    void closeEpoch(int partition) {
        epochEvent(partition, new EpochEvent.Closed());
        epochs[partition]++;
        offsets[partition] = 0;
        indexEvent(new IndexEvent.Started(PartitionId.of(partition), EpochId.of(epochs[partition])));
    }

    private void indexEvent(IndexEvent e) {
        index.append(FeedStreams.INDEX, Expected.any(), List.of(new EventData(e.type(), FeedCodec.encode(e), null, null, null, null)));
    }

    /** The {@code n}-th stream name of a category that routes to {@code partition}. */
    String streamIn(String category, int partition, int n) {
        int found = 0;
        for (int k = 0; ; k++) {
            String s = category + "-" + k;
            if (Partitioner.route(StreamName.parse(s), partitions).value() == partition && found++ == n) {
                return s;
            }
        }
    }
}
