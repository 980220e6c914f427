package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.EpochRecord;
import io.appendsfeed.model.feed.EpochPage;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Partitioner;
import io.appendsfeed.model.feed.Span;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A feed kept in memory, for tests of the core without DynamoDB: per partition a list of epochs,
 * each a list of epoch events, written the way the indexer writes them ({@code Ingested} spans
 * routed by {@link Partitioner}, {@code Closed} ending an epoch and starting the next). Spans are
 * made up here (no store table): handlers get index-only events.
 */
public final class InMemoryFeed implements Feed {

    private final Clock clock;
    private final List<List<List<EpochRecord>>> partitions = new ArrayList<>();
    private final Map<StreamName, Long> versions = new HashMap<>();

    /** @param clock stamps the index time of epoch events */
    public InMemoryFeed(int partitions, Clock clock) {
        this.clock = clock;
        for (int p = 0; p < partitions; p++) {
            List<List<EpochRecord>> epochs = new ArrayList<>();
            epochs.add(new ArrayList<>());
            this.partitions.add(epochs);
        }
    }

    // ---- writing, as the indexer would

    /** The next span of a stream: its events follow those of the spans made before. */
    public synchronized Span write(String stream, String... types) {
        StreamName name = StreamName.parse(stream);
        long version = versions.getOrDefault(name, 0L);
        versions.put(name, version + types.length);
        return new Span(name, version, List.of(types));
    }

    /** Routes each span to its partition and appends one {@code Ingested} per partition. */
    public synchronized void ingest(Span... spans) {
        Map<Integer, List<Span>> byPartition = new HashMap<>();
        for (Span s : spans) {
            byPartition.computeIfAbsent(Partitioner.route(s.stream(), partitions.size()).value(), p -> new ArrayList<>()).add(s);
        }
        byPartition.forEach((p, list) -> append(p, new EpochEvent.Ingested(list, List.of())));
    }

    /** Closes the partition's active epoch and starts the next one. */
    public synchronized void closeEpoch(int partition) {
        append(partition, new EpochEvent.Closed());
        partitions.get(partition).add(new ArrayList<>());
    }

    private void append(int partition, EpochEvent event) {
        List<List<EpochRecord>> epochs = partitions.get(partition);
        List<EpochRecord> active = epochs.get(epochs.size() - 1);
        active.add(EpochRecord.of(Checkpoint.of(epochs.size() - 1, active.size()), clock.instant(), event));
    }

    /** A stream name of the given category that routes to {@code partition}. */
    public String streamIn(String category, int partition, int n) {
        int found = 0;
        for (int k = 0; ; k++) {
            String s = category + "-" + k;
            if (Partitioner.route(StreamName.parse(s), partitions.size()).value() == partition && found++ == n) {
                return s;
            }
        }
    }

    // ---- reading, as the core does

    @Override
    public synchronized int partitions() {
        return partitions.size();
    }

    @Override
    public synchronized EpochPage read(PartitionId partition, Checkpoint from, int max) {
        List<EpochRecord> epoch = epoch(partition, from.epoch().value());
        if (from.offset() >= epoch.size()) {
            return new EpochPage(List.of(), true);
        }
        int end = (int) Math.min(epoch.size(), from.offset() + max);
        List<EpochRecord> records = epoch.subList((int) from.offset(), end);
        boolean atTail = end == epoch.size() && !(records.get(records.size() - 1).event() instanceof EpochEvent.Closed);
        return new EpochPage(records, atTail);
    }

    @Override
    public synchronized Checkpoint normalize(PartitionId partition, Checkpoint from) {
        EpochRecord previous = from.offset() == 0 ? null : at(partition, Checkpoint.of(from.epoch().value(), from.offset() - 1));
        return previous != null && previous.event() instanceof EpochEvent.Closed ? from.nextEpoch() : from;
    }

    @Override
    public synchronized Checkpoint tail(PartitionId partition) {
        List<List<EpochRecord>> epochs = partitions.get(partition.value());
        return Checkpoint.of(epochs.size() - 1, epochs.get(epochs.size() - 1).size());
    }

    @Override
    public synchronized Checkpoint firstIndexedAtOrAfter(PartitionId partition, Instant time) {
        return all(partition).stream().filter(r -> !r.indexedAt().isBefore(time)).map(EpochRecord::position).findFirst()
                .orElseGet(() -> tail(partition));
    }

    @Override
    public synchronized long distance(PartitionId partition, Checkpoint from, Checkpoint to) {
        return all(partition).stream().filter(r -> r.position().compareTo(from) >= 0 && r.position().compareTo(to) < 0).count();
    }

    @Override
    public synchronized Duration age(PartitionId partition, Checkpoint at, Instant now) {
        EpochRecord r = at(partition, at);
        return r == null || r.indexedAt().isAfter(now) ? Duration.ZERO : Duration.between(r.indexedAt(), now);
    }

    private List<EpochRecord> epoch(PartitionId partition, int epoch) {
        List<List<EpochRecord>> epochs = partitions.get(partition.value());
        return epoch < epochs.size() ? epochs.get(epoch) : List.of();
    }

    private EpochRecord at(PartitionId partition, Checkpoint c) {
        List<EpochRecord> epoch = epoch(partition, c.epoch().value());
        return c.offset() < epoch.size() ? epoch.get((int) c.offset()) : null;
    }

    private List<EpochRecord> all(PartitionId partition) {
        return partitions.get(partition.value()).stream().flatMap(List::stream).toList();
    }
}
