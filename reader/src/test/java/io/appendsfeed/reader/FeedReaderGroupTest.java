package io.appendsfeed.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import io.appendsfeed.reader.CheckpointStore.StoredCheckpoint;
import io.appendsfeed.reader.CheckpointStore.CommitResult;
import io.appendsfeed.reader.LeaseStore.Lease;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.FeedReader.PartitionLag;

/**
 * A consumer group on DynamoDB Local while events keep arriving: three readers, one crashes and is
 * restarted, a fourth joins late, one leaves cleanly. Prints how long each rebalance took and how
 * many events the crash made the group handle twice (measured, never asserted).
 */
@ExtendWith(LocalDynamoExtension.class)
class FeedReaderGroupTest {

    private static final int PARTITIONS = 4;
    private static final int STREAMS_PER_PARTITION = 3;
    private static final String GROUP = "group";
    private static final Duration LEASE_TIMEOUT = Duration.ofSeconds(2);
    /** Long enough that the crash finds handled events not yet committed. */
    private static final Duration COMMIT_INTERVAL = Duration.ofSeconds(1);

    private record Handled(String by, StreamName stream, long index) {}

    /** One reader process: records what it handled; once crashed, handles nothing more (its calls hang). */
    private static final class Incarnation implements StreamHandler {
        final String name;
        final ConcurrentLinkedQueue<Handled> all;
        final Map<StreamName, List<Long>> byStream = new ConcurrentHashMap<>();
        final AtomicBoolean crashed = new AtomicBoolean();
        final CountDownLatch thaw = new CountDownLatch(1);

        Incarnation(String name, ConcurrentLinkedQueue<Handled> all) {
            this.name = name;
            this.all = all;
        }

        @Override
        public HandlerResult handle(StreamName stream, List<FeedEvent> events) throws Exception {
            if (crashed.get()) {
                thaw.await(); // a crashed process does nothing more; released only to shut the test down
                return HandlerResult.handled();
            }
            for (FeedEvent e : events) {
                byStream.computeIfAbsent(stream, s -> java.util.Collections.synchronizedList(new ArrayList<>())).add(e.index());
                all.add(new Handled(name, stream, e.index()));
            }
            return HandlerResult.handled();
        }
    }

    /** The crashing instance's store: its network is cut at the crash; remembers the last checkpoint it saw per partition. */
    private static final class CrashableStore extends FeedReaderLeaseTest.Severable {
        final Map<PartitionId, Checkpoint> lastSeen = new ConcurrentHashMap<>();

        CrashableStore(DynamoCheckpointStore real) {
            super(real);
        }

        @Override public Optional<StoredCheckpoint> read(String g, PartitionId p) {
            Optional<StoredCheckpoint> c = super.read(g, p);
            c.ifPresent(x -> lastSeen.put(p, x.checkpoint()));
            return c;
        }
        @Override public CommitResult commit(String g, PartitionId p, Checkpoint to, String by, Lease fence) {
            CommitResult r = super.commit(g, p, to, by, fence);
            if (r instanceof CommitResult.Committed) {
                lastSeen.put(p, to);
            }
            return r;
        }
    }

    @Test
    void a_group_spreads_its_partitions_survives_a_crash_and_a_late_joiner_and_handles_every_event_in_order(LocalDynamo local)
            throws Exception {
        FeedFixture f = new FeedFixture(local, PARTITIONS);
        Map<StreamName, Integer> partitionOf = new HashMap<>();
        List<String> streams = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            for (int n = 0; n < STREAMS_PER_PARTITION; n++) {
                String s = f.streamIn("Account", p, n);
                streams.add(s);
                partitionOf.put(StreamName.parse(s), p);
            }
        }
        // each round appends one event to every stream and one epoch event to every partition: the
        // event of round r has index r in its stream and sits at epoch offset r, so Checkpoint.of(0, r)
        // is the position before it
        AtomicInteger rounds = new AtomicInteger();
        AtomicBoolean producing = new AtomicBoolean(true);
        Thread producer = new Thread(() -> {
            while (producing.get()) {
                io.appendsfeed.model.feed.Span[] spans = streams.stream().map(s -> f.write(s, "Changed")).toArray(io.appendsfeed.model.feed.Span[]::new);
                f.ingest(spans);
                rounds.incrementAndGet();
            }
        }, "producer");

        ConcurrentLinkedQueue<Handled> all = new ConcurrentLinkedQueue<>();
        DynamoCheckpointStore dynamoStore = new DynamoCheckpointStore(local.dynamo(), f.indexTable, Clock.systemUTC());
        DynamoParkedStreams parked = new DynamoParkedStreams(local.dynamo(), f.indexTable, Clock.systemUTC());
        CrashableStore crashable = new CrashableStore(dynamoStore);
        Map<String, Incarnation> incarnations = new HashMap<>();
        Map<String, FeedReader> readers = new HashMap<>();
        java.util.function.BiFunction<String, CrashableStore, FeedReader> make = (name, store) -> {
            Incarnation h = new Incarnation(name, all);
            incarnations.put(name, h);
            FeedReaderConfig config = f.config(GROUP).owner(name).leaseTimeout(LEASE_TIMEOUT).commitInterval(COMMIT_INTERVAL).build();
            FeedReader r = store == null ? new FeedReader(local.dynamo(), config, h, dynamoStore, parked)
                    : new FeedReader(local.dynamo(), config, h, store, parked);
            readers.put(name, r);
            return r;
        };
        Map<String, Long> measured = new java.util.LinkedHashMap<>();
        try {
            producer.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> rounds.get() >= 3);
            long t0 = System.nanoTime();
            make.apply("r1", null).start();
            make.apply("r2", crashable).start();
            make.apply("r3", null).start();
            awaitSpread(readers, List.of("r1", "r2", "r3"));
            measured.put("three readers start and spread", ms(t0));
            assertThat(readers.get("r2").partitions()).as("the crashing reader holds something").isNotEmpty();

            // r2 crashes (once it handled events it has not committed yet): its network is cut and it handles
            // nothing more; its leases run out
            int before = incarnations.get("r2").byStream.values().stream().mapToInt(List::size).sum();
            await().atMost(Duration.ofSeconds(10)).until(() -> incarnations.get("r2").byStream.values().stream()
                    .mapToInt(List::size).sum() >= before + 2 * STREAMS_PER_PARTITION);
            long t1 = System.nanoTime();
            crashable.cut.set(true);
            incarnations.get("r2").crashed.set(true);
            awaitSpread(readers, List.of("r1", "r3"));
            measured.put("crash until its partitions are taken over", ms(t1));

            // it restarts (a new process: a new owner id) and gets its share back from the others
            long t2 = System.nanoTime();
            make.apply("r2-restarted", null).start();
            awaitSpread(readers, List.of("r1", "r3", "r2-restarted"));
            measured.put("restarted reader joins (3 instances)", ms(t2));

            long t3 = System.nanoTime();
            make.apply("r4", null).start();
            awaitSpread(readers, List.of("r1", "r3", "r2-restarted", "r4"));
            measured.put("late fourth reader joins", ms(t3));
            assertThat(readers.get("r4").partitions()).as("the late reader's share").hasSize(1);

            long t4 = System.nanoTime();
            readers.get("r3").close();
            awaitSpread(readers, List.of("r1", "r2-restarted", "r4"));
            measured.put("a reader leaves cleanly (close)", ms(t4));

            producing.set(false);
            producer.join();
            int written = rounds.get();
            List<String> live = List.of("r1", "r2-restarted", "r4");
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> streams.stream()
                    .allMatch(s -> handledIndices(all, StreamName.parse(s)).size() == written));
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> live.stream()
                    .flatMap(n -> readers.get(n).lag().stream()).allMatch(l -> l.eventsBehind() == 0));
            assertThat(live.stream().flatMap(n -> readers.get(n).lag().stream()).map(PartitionLag::partition)
                    .collect(Collectors.toSet())).as("all partitions caught up").hasSize(PARTITIONS);

            // every event handled at least once
            for (String s : streams) {
                assertThat(handledIndices(all, StreamName.parse(s))).as(s).hasSize(written).first().isEqualTo(0L);
            }
            // in stream order within each reader
            for (Incarnation h : incarnations.values()) {
                h.byStream.forEach((stream, indices) -> assertThat(indices).as(h.name + " " + stream).isSorted()
                        .doesNotHaveDuplicates());
            }
            // duplicates only after the crash, and exactly from the crashed reader's last checkpoint on
            Map<Handled, Integer> times = new HashMap<>();
            for (Handled h : all) {
                times.merge(new Handled("", h.stream(), h.index()), 1, Integer::sum);
            }
            Set<Handled> duplicates = times.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey)
                    .collect(Collectors.toSet());
            Set<Handled> expected = new HashSet<>();
            incarnations.get("r2").byStream.forEach((stream, indices) -> {
                Checkpoint from = crashable.lastSeen.getOrDefault(PartitionId.of(partitionOf.get(stream)), Checkpoint.START);
                indices.stream().filter(i -> i >= from.offset()).forEach(i -> expected.add(new Handled("", stream, i)));
            });
            assertThat(duplicates).as("events handled twice").isEqualTo(expected);
            System.out.printf("FeedReaderGroupTest: %d partitions, %d streams, %d events written in %d rounds while the group"
                    + " changed; lease timeout %d ms, commit interval %d ms; duplicates after the crash: %d (all from its last committed"
                    + " checkpoint on)%n", PARTITIONS, streams.size(), written * streams.size(), written, LEASE_TIMEOUT.toMillis(),
                    COMMIT_INTERVAL.toMillis(), duplicates.size());
            measured.forEach((what, ms) -> System.out.printf("FeedReaderGroupTest: %s: %d ms%n", what, ms));
        } finally {
            producing.set(false);
            producer.join();
            incarnations.values().forEach(h -> h.thaw.countDown());
            readers.values().forEach(FeedReader::close);
        }
    }

    private static long ms(long since) {
        return (System.nanoTime() - since) / 1_000_000;
    }

    private static TreeSet<Long> handledIndices(ConcurrentLinkedQueue<Handled> all, StreamName stream) {
        return all.stream().filter(h -> h.stream().equals(stream)).map(Handled::index).collect(Collectors.toCollection(TreeSet::new));
    }

    /** Waits until the named readers hold every partition between them, none twice, shares differing by at most one. */
    private static void awaitSpread(Map<String, FeedReader> readers, List<String> names) {
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20)).until(() -> {
            List<Integer> sizes = new ArrayList<>();
            List<PartitionId> held = new ArrayList<>();
            for (String n : names) {
                List<PartitionId> ps = readers.get(n).partitions();
                sizes.add(ps.size());
                held.addAll(ps);
            }
            int min = sizes.stream().mapToInt(Integer::intValue).min().orElse(0);
            int max = sizes.stream().mapToInt(Integer::intValue).max().orElse(0);
            return held.size() == PARTITIONS && new HashSet<>(held).size() == PARTITIONS && max - min <= 1;
        });
    }
}
