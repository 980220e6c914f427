package io.appendsfeed.indexer;

import io.appendsfeed.model.feed.AppendsEpoch;
import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoredEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Test support: reads every epoch of an index back, as a reader would, and checks the feed's invariant. */
public final class FeedReadback {

    /** One epoch as read back. */
    public record Epoch(PartitionId partition, EpochId epoch, List<EpochEvent> events) {
        public boolean closed() {
            return !events.isEmpty() && events.get(events.size() - 1) instanceof EpochEvent.Closed;
        }
    }

    private final StoreClient index;
    private final int partitions;

    public FeedReadback(DynamoDbClient dynamo, String indexTable, int partitions) {
        this.index = new StoreClient(dynamo, StoreConfig.builder(indexTable).reservedStreams(true).build());
        this.partitions = partitions;
    }

    public List<Epoch> epochs() {
        List<Epoch> out = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            for (int e = 0; ; e++) {
                List<StoredEvent> stored = index.readAll(FeedStreams.epoch(PartitionId.of(p), EpochId.of(e)), Read.forward(0).strongly());
                if (stored.isEmpty()) {
                    break;
                }
                List<EpochEvent> events = stored.stream().map(s -> AppendsEpoch.decode(s.type(), s.data())).toList();
                Epoch epoch = new Epoch(PartitionId.of(p), EpochId.of(e), events);
                out.add(epoch);
                if (!epoch.closed()) {
                    break;
                }
            }
        }
        return out;
    }

    /** Every span of every epoch, in feed order, with the epoch holding it. */
    private void forEachSpan(BiConsumer<Epoch, Span> action) {
        for (Epoch epoch : epochs()) {
            for (EpochEvent e : epoch.events()) {
                if (e instanceof EpochEvent.Ingested i) {
                    i.add().forEach(s -> action.accept(epoch, s));
                    i.app().forEach(s -> action.accept(epoch, s));
                }
            }
        }
    }

    /** Every stream's events as the feed holds them, in feed order: index → type, one entry per event. */
    public Map<StreamName, List<String>> streams() {
        Map<StreamName, List<String>> feed = new LinkedHashMap<>();
        Map<StreamName, Long> firstIndex = new LinkedHashMap<>();
        forEachSpan((epoch, s) -> {
            List<String> types = feed.computeIfAbsent(s.stream(), x -> new ArrayList<>());
            long first = firstIndex.computeIfAbsent(s.stream(), x -> s.index());
            assertThat(s.index()).as("%s: span %s must continue exactly where the feed is (no gap, no duplicate)", s.stream(), s)
                    .isEqualTo(first + types.size());
            types.addAll(s.types());
        });
        return feed;
    }

    /**
     * Every stream's events as the feed holds them, index → type, where a stream may have gaps (events
     * lost upstream, or taken as they start): asserts that no event is in the feed twice and that each
     * stream's spans come in stream order.
     */
    public Map<StreamName, TreeMap<Long, String>> eventsAllowingGaps() {
        Map<StreamName, TreeMap<Long, String>> feed = new LinkedHashMap<>();
        forEachSpan((epoch, s) -> {
            TreeMap<Long, String> events = feed.computeIfAbsent(s.stream(), x -> new TreeMap<>());
            assertThat(events.isEmpty() || events.lastKey() < s.index())
                    .as("%s in epoch %s repeats or reorders %s (the feed had %s)", s, epoch.epoch(), s.stream(), events.keySet())
                    .isTrue();
            for (int k = 0; k < s.types().size(); k++) {
                events.put(s.index() + k, s.types().get(k));
            }
        });
        return feed;
    }

    /** Asserts that the feed holds exactly these streams' events from index 0, each once, in order. */
    public void assertExactly(Map<StreamName, List<String>> expected) {
        Map<StreamName, List<String>> actual = streams();
        assertThat(actual).containsExactlyInAnyOrderEntriesOf(expected);
    }
}
