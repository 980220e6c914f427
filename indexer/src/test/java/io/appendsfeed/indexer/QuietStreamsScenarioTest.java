package io.appendsfeed.indexer;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.AppendsEpoch.EpochLimits;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The reported scenario, on DynamoDB Local with its real Streams records: epochs of 2 events; 10
 * streams that write 10 events each across many epochs, 4 that write 3 and go quiet (two of them
 * calving at every event), 2 that lose one Streams record (one whose Tip still holds the lost event,
 * one whose Tip does not). Round 2 comes 10 minutes later (past the 5-minute clock skew) to a cold
 * indexer: 26 more events, one record per invocation, and every record of round 1 delivered again.
 * With the writers' clocks right, 15 minutes or 3 hours ahead, or 3 hours behind: no duplicate, the
 * lost event the Tip holds is healed, only the one it does not hold is refused, and no refusal lasts.
 */
@ExtendWith(LocalDynamoExtension.class)
class QuietStreamsScenarioTest {

    private static final Duration LATER = Duration.ofMinutes(10);

    @ParameterizedTest(name = "writer clock {0} minutes off")
    @ValueSource(ints = {0, 15, 180, -180})
    void no_duplicate_and_only_the_truly_lost_event_refused(int writerSkewMinutes, LocalDynamo local) {
        String storeTable = IndexerTables.store(local);
        String index = IndexerTables.index(local);
        Clock writer = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(writerSkewMinutes));
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).clock(writer).build());
        StoreClient calving = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).clock(writer).tipMaxEvents(1).build());
        Map<String, Long> versions = new HashMap<>();

        for (int e = 0; e < 10; e++) {
            for (int k = 0; k < 10; k++) {
                append(store, versions, "Busy-" + k);
            }
            if (e < 3) {
                for (int k = 0; k < 4; k++) {
                    append(k < 2 ? store : calving, versions, "Quiet-" + k);
                }
                append(store, versions, "Lossy-0");
                append(calving, versions, "Lossy-1");
            }
        }
        List<ChangeRecord> round1 = records(local, storeTable, 0);
        // event 1 of each lossy stream: its record never reaches the indexer
        List<ChangeRecord> delivered = round1.stream().filter(r -> !(stream(r).startsWith("Lossy-") && isTip(r) && next(r) == 2)).toList();
        assertThat(delivered).hasSize(round1.size() - 2);

        IndexerConfig.Builder config = IndexerConfig.builder(index).limits(new EpochLimits(2, 1 << 20, 1000));
        Lambda first = new Lambda(Indexer.start(local.dynamo(), config.build()));
        for (int k = 0; k < delivered.size(); k += 10) {
            first.invoke(delivered.subList(k, Math.min(delivered.size(), k + 10)));
        }
        assertThat(first.healed).as("Lossy-0's event 1, from its Tip").isEqualTo(1);
        assertThat(first.refused).as("only Lossy-1's record after its lost event").containsExactly("Lossy-1@2");

        // round 2, ten minutes later per DynamoDB and the indexer: a new process
        for (int k = 0; k < 2; k++) {
            for (int s = 0; s < 10; s++) {
                append(store, versions, "Busy-" + s);
            }
        }
        for (int k = 0; k < 4; k++) {
            append(k < 2 ? store : calving, versions, "Quiet-" + k);
        }
        append(store, versions, "Lossy-0");
        append(calving, versions, "Lossy-1");
        List<ChangeRecord> round2 = records(local, storeTable, round1.size()).stream().map(r -> later(r, LATER)).toList();
        assertThat(round2.stream().filter(QuietStreamsScenarioTest::isTip)).as("26 more events").hasSize(26);
        Lambda second = new Lambda(Indexer.start(local.dynamo(), config.clock(Clock.offset(Clock.systemUTC(), LATER)).build()));
        for (ChangeRecord r : round2) {
            second.invoke(List.of(r));
        }
        for (int k = 0; k < delivered.size(); k += 10) { // and round 1 again, as a shard redelivered from an old checkpoint
            second.invoke(delivered.subList(k, Math.min(delivered.size(), k + 10)));
        }
        // Lossy-1 was quiet past the horizon: event 3 was taken as it starts, and the refused record,
        // delivered again, is now behind where the feed has the stream: nothing is refused for good
        assertThat(second.refused).isEmpty();

        Map<String, TreeMap<Long, String>> feed = feed(local, index);
        for (var e : versions.entrySet()) {
            String s = e.getKey();
            long expectedEvents = s.equals("Lossy-1") ? versions.get(s) - 2 : versions.get(s);
            assertThat(feed.get(s)).as(s).hasSize((int) expectedEvents);
        }
        assertThat(feed.get("Lossy-1").keySet()).as("events 1 (lost) and 2 (refused) are the gap feed verify reports")
                .containsExactly(0L, 3L);
        assertThat(feed.get("Lossy-0").keySet()).containsExactly(0L, 1L, 2L, 3L);
    }

    /** As Lambda runs the handler: a refused batch is retried, then its failing record goes to the failure destination. */
    private static final class Lambda {
        final Indexer indexer;
        final List<String> refused = new ArrayList<>();
        long healed;

        Lambda(Indexer indexer) {
            this.indexer = indexer;
        }

        void invoke(List<ChangeRecord> batch) {
            List<ChangeRecord> rest = batch;
            while (!rest.isEmpty()) {
                BatchOutcome o = indexer.ingest(rest);
                healed += o.healedEvents();
                if (o.complete()) {
                    return;
                }
                assertThat(o.errors()).allMatch(x -> x instanceof FeedGapException);
                int at = indexOf(rest, o.firstNotIngested());
                BatchOutcome retried = indexer.ingest(rest.subList(at, rest.size()));
                assertThat(retried.complete()).as("refused again").isFalse();
                assertThat(retried.firstNotIngested()).isEqualTo(o.firstNotIngested());
                ChangeRecord r = rest.get(at);
                refused.add(stream(r) + "@" + (next(r) - 1));
                rest = rest.subList(at + 1, rest.size());
            }
        }

        private static int indexOf(List<ChangeRecord> batch, String sequenceNumber) {
            for (int k = 0; k < batch.size(); k++) {
                if (batch.get(k).sequenceNumber().equals(sequenceNumber)) {
                    return k;
                }
            }
            throw new AssertionError(sequenceNumber + " not in the batch");
        }
    }

    private static void append(StoreClient client, Map<String, Long> versions, String stream) {
        long v = versions.getOrDefault(stream, 0L);
        client.append(StreamName.parse(stream), Expected.version(v), List.of(EventData.json("E" + v, "{}")));
        versions.put(stream, v + 1);
    }

    private static List<ChangeRecord> records(LocalDynamo local, String table, int skip) {
        return StreamRecords.all(local.dynamo(), local.streams(), table).stream().skip(skip).map(ChangeRecord::from).toList();
    }

    private static ChangeRecord later(ChangeRecord r, Duration by) {
        Instant at = r.approximateCreation() == null ? Instant.now() : r.approximateCreation();
        return new ChangeRecord(r.sequenceNumber(), r.eventName(), r.viewType(), r.keys(), r.newImage(), at.plus(by));
    }

    private static String stream(ChangeRecord r) {
        return r.keys().get("p").s();
    }

    private static boolean isTip(ChangeRecord r) {
        return r.keys().get("i").n().equals("2147483647");
    }

    private static long next(ChangeRecord r) {
        return Long.parseLong(r.newImage().get("n").n());
    }

    /** Every stream's events in the feed (none twice, each stream's in order), each the store's event at its index. */
    private static Map<String, TreeMap<Long, String>> feed(LocalDynamo local, String index) {
        Map<String, TreeMap<Long, String>> feed = new HashMap<>();
        new FeedReadback(local.dynamo(), index, 1).eventsAllowingGaps().forEach((stream, events) -> {
            events.forEach((i, type) -> assertThat(type).as("%s@%s", stream, i).isEqualTo("E" + i));
            feed.put(stream.value(), events);
        });
        return feed;
    }
}
