package io.appendsfeed.model.feed;

import static io.appendsfeed.model.feed.EpochDeciderTest.after;
import static io.appendsfeed.model.feed.EpochDeciderTest.in;
import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.feed.EpochDeciderTest.In;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link EpochDecider#stillHolds}: a write that lost a race is sent again unchanged only when deciding
 * again on the epoch as the winner left it would give the same write.
 */
class EpochRebaseTest {

    private static final EpochLimits LIMITS = EpochLimits.DEFAULT;

    private static EpochWrite decide(EpochState s, List<In> inputs, EpochLimits limits) {
        return EpochDecider.decide(s, inputs, Map.of(), limits, false);
    }

    private static EpochEvent.Ingested adds(Span... spans) {
        return new EpochEvent.Ingested(List.of(spans), List.of());
    }

    @Test
    void a_winner_that_wrote_other_streams_leaves_the_write_as_it_was() {
        EpochState before = after(EpochState.empty(EpochId.ZERO), adds(Span.of("A-1", 0, "x"), Span.of("B-1", 0, "x")));
        List<In> mine = List.of(in("A-1", 1, "y"), in("C-1", 0, "z"));
        EpochWrite d = decide(before, mine, LIMITS);
        EpochEvent.Ingested theirs = new EpochEvent.Ingested(List.of(Span.of("D-1", 0, "w")), List.of(Span.of("B-1", 1, "w")));
        EpochState now = after(before, theirs);

        assertThat(EpochDecider.stillHolds(d, now, List.of(theirs), mine, LIMITS)).isTrue();
        assertThat(decide(now, mine, LIMITS)).isEqualTo(d);
    }

    @Test
    void a_winner_that_wrote_one_of_the_writes_streams_sends_it_back_to_deciding() {
        EpochState before = after(EpochState.empty(EpochId.ZERO), adds(Span.of("A-1", 0, "x")));
        List<In> mine = List.of(in("A-1", 1, "y"), in("C-1", 0, "z"));
        EpochWrite d = decide(before, mine, LIMITS);

        // the same event of A-1 (a redelivery another indexer got first), and a new stream this write also adds
        for (EpochEvent.Ingested theirs : List.of(new EpochEvent.Ingested(List.of(), List.of(Span.of("A-1", 1, "y"))),
                adds(Span.of("C-1", 0, "z")))) {
            EpochState now = after(before, theirs);
            assertThat(EpochDecider.stillHolds(d, now, List.of(theirs), mine, LIMITS)).as("%s", theirs).isFalse();
            assertThat(decide(now, mine, LIMITS)).isNotEqualTo(d);
        }
    }

    @Test
    void a_winner_that_closed_the_epoch_or_filled_it_sends_it_back_to_deciding() {
        EpochState before = after(EpochState.empty(EpochId.ZERO), adds(Span.of("A-1", 0, "x")));
        List<In> mine = List.of(in("B-1", 0, "y"));
        EpochWrite d = decide(before, mine, LIMITS);

        EpochEvent closed = new EpochEvent.Closed();
        assertThat(EpochDecider.stillHolds(d, after(before, closed), List.of(closed), mine, LIMITS)).isFalse();

        EpochEvent.Ingested theirs = adds(Span.of("C-1", 0, "w"));
        EpochState now = after(before, theirs);
        EpochLimits twoEvents = new EpochLimits(2, LIMITS.maxBytes(), LIMITS.maxStreams());
        EpochLimits bytesUsed = new EpochLimits(LIMITS.maxEvents(), now.bytes() + d.bodyBytes() - 1, LIMITS.maxStreams());
        EpochLimits threeStreams = new EpochLimits(LIMITS.maxEvents(), LIMITS.maxBytes(), 2);
        for (EpochLimits limits : List.of(twoEvents, bytesUsed, threeStreams)) {
            EpochWrite decided = decide(before, mine, limits);
            assertThat(EpochDecider.stillHolds(decided, now, List.of(theirs), mine, limits)).as("%s", limits).isFalse();
            assertThat(decide(now, mine, limits)).as("%s", limits).isNotEqualTo(decided);
        }
    }

    /**
     * Generated races: whenever a lost write is said to still hold, deciding again on the epoch as the
     * winners left it gives exactly that write.
     */
    @Test
    void whenever_a_write_still_holds_deciding_again_gives_the_same_write() {
        Random random = new Random(20261126);
        int held = 0;
        int refused = 0;
        for (int round = 0; round < 6_000; round++) {
            EpochLimits limits = new EpochLimits(1 + random.nextInt(12), 60 + random.nextInt(400), 1 + random.nextInt(10));
            Map<String, Long> next = new HashMap<>();
            EpochState before = EpochState.empty(EpochId.ZERO);
            for (int k = random.nextInt(4); k > 0 && !before.isClosed() && before.version() < limits.maxEvents(); k--) {
                before = after(before, ingested(random, next, 1 + random.nextInt(3)));
            }
            if (before.isClosed() || before.version() >= limits.maxEvents()) {
                continue;
            }
            Map<String, Long> mineNext = new HashMap<>(next);
            List<In> mine = new ArrayList<>();
            for (int k = 1 + random.nextInt(4); k > 0; k--) {
                String stream = stream(random);
                long from = mineNext.getOrDefault(stream, 0L) - random.nextInt(2); // now and then a duplicate
                int count = 1 + random.nextInt(3);
                String[] types = new String[count];
                for (int t = 0; t < count; t++) {
                    types[t] = "T" + random.nextInt(3);
                }
                mine.add(in(stream, Math.max(0, from), types));
                mineNext.put(stream, Math.max(0, from) + count);
            }
            EpochWrite d = decide(before, mine, limits);
            if (!d.writes()) {
                continue;
            }
            List<EpochEvent> theirs = new ArrayList<>();
            EpochState now = before;
            for (int k = 1 + random.nextInt(3); k > 0 && !now.isClosed(); k--) {
                EpochEvent e = random.nextInt(20) == 0 ? new EpochEvent.Closed() : ingested(random, next, 1 + random.nextInt(2));
                theirs.add(e);
                now = after(now, e);
            }
            if (EpochDecider.stillHolds(d, now, theirs, mine, limits)) {
                held++;
                assertThat(decide(now, mine, limits)).as("round %d: %s then %s", round, mine, theirs).isEqualTo(d);
            } else {
                refused++;
            }
        }
        assertThat(held).as("races where the write still held").isGreaterThan(300);
        assertThat(refused).as("races where it did not").isGreaterThan(300);
    }

    /** Streams S-0..S-11; {@code next} is each stream's next index in the feed, kept as the events are made. */
    private static String stream(Random random) {
        return "S-" + random.nextInt(12);
    }

    private static EpochEvent.Ingested ingested(Random random, Map<String, Long> next, int spans) {
        Map<String, Span> add = new java.util.LinkedHashMap<>();
        Map<String, Span> app = new java.util.LinkedHashMap<>();
        for (int k = 0; k < spans; k++) {
            String stream = stream(random);
            if (add.containsKey(stream) || app.containsKey(stream)) {
                continue;
            }
            long from = next.getOrDefault(stream, 0L);
            Span span = Span.of(stream, from, "W" + random.nextInt(3));
            (from == 0 ? add : app).put(stream, span);
            next.put(stream, from + 1);
        }
        return new EpochEvent.Ingested(new ArrayList<>(add.values()), new ArrayList<>(app.values()));
    }
}
