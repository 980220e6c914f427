package io.appendsfeed.indexer;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.AppendsEpoch.EpochLimits;
import io.appendsfeed.model.testing.LocalDynamo;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Exactly once for every stream history and any writer clock. Generated histories of a store's
 * Streams records, delivered to indexers as a Lambda would: streams that write, go quiet while 0..N
 * epochs close and hours pass, then write again; writers whose clocks ({@code t} in the Tip images)
 * are off by up to 24 hours either way; records that are lost upstream; batches split, redelivered
 * from before the acknowledged point, and delivered by a warm indexer, a competing one, or a cold one
 * that starts after the horizons the indexer uses. Time is the test's clock, never a sleep.
 *
 * <p>Properties: every event the indexer acknowledged is in the feed; no event is in it twice, and a
 * stream's events are in stream order; every event in the feed is one the store holds; a batch is
 * refused only at a record whose earlier events are truly missing (lost upstream, never delivered)
 * and not in that record's Tip image, so that no retry could ever make it right.
 */
class StreamHistoryPropertyTest {

    private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");
    private static final Duration RETENTION = Duration.ofHours(24);
    private static final int STREAMS = 5;

    /** One thing the world does. */
    sealed interface Op {
        /** A writer appends {@code count} events to stream {@code stream}; the record is lost upstream when {@code lost}. */
        record Write(int stream, int count, boolean lost) implements Op {}

        /** Other streams' first events: enough of them close epochs. */
        record Fill(int count) implements Op {}

        /** Time passes (the source catches up first if its oldest record would expire meanwhile). */
        record Wait(Duration duration) implements Op {}

        /** The current indexer takes the next {@code count} records from the acknowledged point. */
        record Deliver(int count) implements Op {}

        /** The current indexer is handed again up to {@code count} records from {@code back} before the acknowledged point. */
        record Redeliver(int back, int count) implements Op {}

        /** A new indexer process, its clock off by {@code skewSeconds} from the true time, takes over. */
        record Cold(int skewSeconds) implements Op {}

        /** The other warm indexer (a competing source of the same records) takes over. */
        record Switch() implements Op {}
    }

    /** One Streams record: stream {@code stream}'s events [{@code first}, {@code next}), the Tip holding [{@code tipFirst}, {@code next}). */
    record Rec(int seq, StreamName stream, long first, long next, long tipFirst, Instant created, boolean lost, ChangeRecord record) {}

    /** A clock at the true time plus a fixed offset. */
    static final class OffsetClock extends Clock {
        private final Instant[] now;
        private final Duration offset;

        OffsetClock(Instant[] now, Duration offset) {
            this.now = now;
            this.offset = offset;
        }

        @Override public ZoneId getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(ZoneId zone) { return this; }
        @Override public Instant instant() { return now[0].plus(offset); }
    }

    /** A refusal, checked once the history is over. */
    record Refusal(Rec at, String message) {}

    @Property(tries = 200, shrinking = ShrinkingMode.OFF)
    void every_event_once_in_order_and_refused_only_when_truly_missing(
            @ForAll("skews") List<Integer> writerSkewMinutes, @ForAll("tipSizes") List<Integer> tipSizes,
            @ForAll("history") List<Op> history, @ForAll("epochEvents") int epochEvents) {
        World w = new World(LocalDynamo.shared(), writerSkewMinutes, tipSizes, epochEvents);
        for (Op op : history) {
            w.apply(op);
        }
        w.drain();
        w.check();
    }

    /** The store, its Streams records, the indexers and what they acknowledged. */
    static final class World {
        final LocalDynamo local;
        final String table;
        final Instant[] now = {T0};
        final List<Integer> writerSkews;
        final List<Integer> tipSizes;
        final long[] next = new long[STREAMS];
        final List<Rec> log = new ArrayList<>();
        final Set<Integer> acknowledged = new HashSet<>();
        final List<Refusal> refusals = new ArrayList<>();
        final IndexerConfig.Builder config;
        Indexer current;
        Indexer other;
        int acked;
        int fillers;

        World(LocalDynamo local, List<Integer> writerSkews, List<Integer> tipSizes, int epochEvents) {
            this.local = local;
            this.table = IndexerTables.index(local);
            this.writerSkews = writerSkews;
            this.tipSizes = tipSizes;
            this.config = IndexerConfig.builder(table).limits(new EpochLimits(epochEvents, 1 << 20, 1000));
            this.current = start(0);
            this.other = start(-20);
        }

        Indexer start(int skewSeconds) {
            return Indexer.start(local.dynamo(), config.clock(new OffsetClock(now, Duration.ofSeconds(skewSeconds))).build());
        }

        void apply(Op op) {
            if (op instanceof Op.Write x) {
                write(StreamName.parse("Account-" + x.stream()), x.stream(), x.count(), x.lost());
            } else if (op instanceof Op.Fill x) {
                for (int k = 0; k < x.count(); k++) {
                    write(StreamName.parse("Other-" + fillers++), -1, 1, false);
                }
            } else if (op instanceof Op.Wait x) {
                pending().stream().findFirst().filter(r -> r.created().plus(RETENTION).isBefore(now[0].plus(x.duration())))
                        .ifPresent(r -> drain());
                now[0] = now[0].plus(x.duration());
            } else if (op instanceof Op.Deliver x) {
                deliver(x.count());
            } else if (op instanceof Op.Redeliver x) {
                List<Rec> again = new ArrayList<>();
                for (int k = Math.max(0, acked - x.back()); k < log.size() && again.size() < x.count(); k++) {
                    Rec r = log.get(k);
                    if (!r.lost() && !r.created().plus(RETENTION).isBefore(now[0])) {
                        again.add(r);
                    }
                }
                ingest(again);
            } else if (op instanceof Op.Cold x) {
                current = start(x.skewSeconds());
            } else if (op instanceof Op.Switch) {
                Indexer o = other;
                other = current;
                current = o;
            }
        }

        /** Appends to the store: the Streams record of the Tip's write, as DynamoDB makes it. */
        void write(StreamName stream, int s, int count, boolean lost) {
            long first = s < 0 ? 0 : next[s];
            long end = first + count;
            long tipFirst = s < 0 ? 0 : Math.max(0, Math.min(first, end - tipSizes.get(s)));
            if (s >= 0) {
                next[s] = end;
            }
            Duration writerSkew = Duration.ofMinutes(s < 0 ? 0 : writerSkews.get(s));
            List<AttributeValue> types = new ArrayList<>();
            List<AttributeValue> events = new ArrayList<>();
            for (long j = tipFirst; j < end; j++) {
                types.add(AttributeValue.fromS(type(j)));
                // earlier events in the Tip were written earlier; a writer's clock is its own
                Instant t = now[0].minusSeconds(end - 1 - j).plus(writerSkew);
                events.add(AttributeValue.fromM(Map.of("t", AttributeValue.fromS(t.toString()),
                        "d", AttributeValue.fromB(software.amazon.awssdk.core.SdkBytes.fromUtf8String("{}")))));
            }
            Map<String, AttributeValue> keys = Map.of("p", AttributeValue.fromS(stream.value()), "i", AttributeValue.fromN("2147483647"));
            Map<String, AttributeValue> image = new HashMap<>(keys);
            image.put("n", AttributeValue.fromN(Long.toString(end)));
            image.put("a", AttributeValue.fromN(Integer.toString(count)));
            image.put("c", AttributeValue.fromL(types));
            image.put("e", AttributeValue.fromL(events));
            image.put("b", AttributeValue.fromN("0"));
            image.put("u", AttributeValue.fromL(List.of()));
            String seq = String.format("%012d", log.size());
            // DynamoDB's own time, rounded down to the second as the Streams API gives it
            Instant created = now[0].truncatedTo(ChronoUnit.SECONDS);
            ChangeRecord r = new ChangeRecord(seq, first == 0 ? "INSERT" : "MODIFY", "NEW_IMAGE", keys, image, created);
            log.add(new Rec(log.size(), stream, first, end, tipFirst, created, lost, r));
        }

        static String type(long index) {
            return "E" + index;
        }

        List<Rec> pending() {
            return log.subList(Math.min(acked, log.size()), log.size()).stream().filter(r -> !r.lost()).toList();
        }

        /** A Lambda's delivery: the batch from the acknowledged point; on a refusal, retried once, then skipped past. */
        void deliver(int count) {
            List<Rec> batch = pending().stream().limit(count).toList();
            if (batch.isEmpty()) {
                return;
            }
            BatchOutcome o = ingest(batch);
            if (o.complete()) {
                acked = batch.get(batch.size() - 1).seq() + 1;
                return;
            }
            int failed = Integer.parseInt(o.firstNotIngested());
            acked = failed;
            BatchOutcome retried = ingest(pending().stream().limit(count).toList());
            if (!retried.complete() && Integer.parseInt(retried.firstNotIngested()) == failed) {
                acked = failed + 1; // refused again: bisected out and sent to the failure destination, as Lambda does
            } else {
                acked = retried.complete() ? batch.get(batch.size() - 1).seq() + 1 : Integer.parseInt(retried.firstNotIngested());
            }
        }

        BatchOutcome ingest(List<Rec> batch) {
            if (batch.isEmpty()) {
                return null;
            }
            BatchOutcome o = current.ingest(batch.stream().map(Rec::record).toList());
            int end = o.complete() ? Integer.MAX_VALUE : Integer.parseInt(o.firstNotIngested());
            batch.stream().filter(r -> r.seq() < end).forEach(r -> acknowledged.add(r.seq()));
            if (!o.complete()) {
                assertThat(o.errors()).as("a batch fails only for a gap: %s", o.errors()).allMatch(e -> e instanceof FeedGapException);
                Rec at = log.get(end);
                refusals.add(new Refusal(at, o.errors().toString()));
            }
            return o;
        }

        /** The source catches up with everything still waiting. */
        void drain() {
            for (int guard = 0; !pending().isEmpty() && guard < 1000; guard++) {
                deliver(100);
            }
        }

        void check() {
            Map<StreamName, TreeMap<Long, String>> feed = new FeedReadback(local.dynamo(), table, 1).eventsAllowingGaps();
            feed.forEach((stream, events) -> events.forEach((i, type) ->
                    assertThat(type).as("%s@%s is the store's event", stream, i).isEqualTo(type(i))));
            for (Rec r : log) {
                if (acknowledged.contains(r.seq())) {
                    for (long j = r.first(); j < r.next(); j++) {
                        assertThat(feed.getOrDefault(r.stream(), new TreeMap<>())).as("acknowledged %s@%s is in the feed", r.stream(), j)
                                .containsKey(j);
                    }
                }
            }
            for (Refusal refusal : refusals) {
                Rec at = refusal.at();
                boolean trulyMissing = false;
                for (Rec r : log) {
                    if (r.stream().equals(at.stream()) && r.lost() && r.first() < at.tipFirst()) {
                        for (long j = r.first(); j < Math.min(r.next(), at.tipFirst()); j++) {
                            trulyMissing |= !feed.getOrDefault(at.stream(), new TreeMap<>()).containsKey(j);
                        }
                    }
                }
                assertThat(trulyMissing).as("refused at %s@%s (Tip from %s): %s; but nothing before the Tip is truly missing",
                        at.stream(), at.first(), at.tipFirst(), refusal.message()).isTrue();
            }
        }
    }

    @Provide
    Arbitrary<List<Integer>> skews() {
        // minutes: within the clock-skew allowance, around it, hours, a day either way
        return Arbitraries.oneOf(Arbitraries.of(0, 0, 4, -4, 6, -6, 15, 180, -180, 24 * 60, -24 * 60),
                        Arbitraries.integers().between(-24 * 60, 24 * 60))
                .list().ofSize(STREAMS);
    }

    @Provide
    Arbitrary<List<Integer>> tipSizes() {
        return Arbitraries.integers().between(1, 6).list().ofSize(STREAMS);
    }

    @Provide
    Arbitrary<Integer> epochEvents() {
        return Arbitraries.integers().between(2, 4);
    }

    @Provide
    Arbitrary<List<Op>> history() {
        Arbitrary<Op> write = Combinators.combine(Arbitraries.integers().between(0, STREAMS - 1), Arbitraries.integers().between(1, 3),
                Arbitraries.integers().between(0, 19)).as((s, n, lost) -> new Op.Write(s, n, lost == 0));
        Arbitrary<Op> fill = Arbitraries.integers().between(1, 8).map(Op.Fill::new);
        Arbitrary<Op> wait = Arbitraries.of(Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofMinutes(4), Duration.ofMinutes(6),
                Duration.ofMinutes(20), Duration.ofHours(3), Duration.ofHours(23), Duration.ofHours(25)).map(Op.Wait::new);
        Arbitrary<Op> deliver = Arbitraries.integers().between(1, 12).map(Op.Deliver::new);
        Arbitrary<Op> redeliver = Combinators.combine(Arbitraries.integers().between(1, 12), Arbitraries.integers().between(1, 12))
                .as(Op.Redeliver::new);
        Arbitrary<Op> cold = Arbitraries.integers().between(-60, 60).map(Op.Cold::new);
        Arbitrary<Op> other = Arbitraries.just(new Op.Switch());
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(8, write), net.jqwik.api.Tuple.of(3, fill), net.jqwik.api.Tuple.of(3, wait),
                net.jqwik.api.Tuple.of(5, deliver), net.jqwik.api.Tuple.of(2, redeliver), net.jqwik.api.Tuple.of(1, cold),
                net.jqwik.api.Tuple.of(1, other)).list().ofMinSize(5).ofMaxSize(40);
    }
}
