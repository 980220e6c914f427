package io.appendsfeed.indexer;

import io.appendsfeed.model.feed.EpochLimits;
import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * "Never a silent gap" for streams the recent epochs do not hold: a stream quiet for days goes on
 * where the feed has it; one whose previous event never reached the feed is healed from its Tip or
 * refused; a stream the feed never held is healed from 0.
 */
@ExtendWith(LocalDynamoExtension.class)
class UnknownStreamTest {

    private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");
    private static final StreamName A = StreamName.parse("Account-A");

    /** A clock the test moves. */
    static final class TestClock extends Clock {
        final AtomicReference<Instant> now = new AtomicReference<>(T0);

        @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(java.time.ZoneId zone) { return this; }
        @Override public Instant instant() { return now.get(); }

        void advance(Duration d) { now.updateAndGet(t -> t.plus(d)); }
    }

    private final TestClock clock = new TestClock();
    private int others;

    /** A span as a Streams record gives it: the Tip's types from {@code tipFirst}, each event written at {@code times}. */
    private SourceSpan record(String stream, long index, long tipFirst, List<String> tipTypes, List<Instant> times) {
        Span tip = new Span(StreamName.parse(stream), tipFirst, tipTypes);
        Span span = tip.from(index);
        return new SourceSpan(span, tip, times.get(times.size() - 1), stream + "@" + index,
                i -> i < tipFirst || i >= tip.nextIndex() ? null : times.get((int) (i - tipFirst)));
    }

    private static SourceSpan fresh(String stream, Instant at) {
        return new SourceSpan(Span.of(stream, 0, "Opened"), null, at, stream + "@0");
    }

    private Indexer indexer(LocalDynamo local, String index, boolean predates) {
        return Indexer.start(local.dynamo(), IndexerConfig.builder(index).clock(clock)
                .limits(new EpochLimits(2, 1 << 20, 1000)).storePredatesFeed(predates).build());
    }

    /** Days pass and other streams fill and close the active epoch (epochs close at their second event). */
    private void daysLater(Indexer indexer, int days) {
        clock.advance(Duration.ofDays(days));
        List<SourceSpan> others = new ArrayList<>();
        for (int k = 0; k < 7; k++) {
            others.add(fresh("Other-" + this.others++, clock.instant()));
        }
        assertThat(indexer.ingestSpans(others).complete()).isTrue();
    }

    @Test
    void a_stream_quiet_for_days_goes_on_where_the_feed_has_it(LocalDynamo local) {
        String index = IndexerTables.index(local);
        Indexer indexer = indexer(local, index, false);
        assertThat(indexer.ingestSpans(List.of(record("Account-A", 0, 0, List.of("Opened", "Deposited"), List.of(T0, T0)))).complete()).isTrue();
        daysLater(indexer, 3);
        daysLater(indexer, 3); // the epoch holding it closed days ago: past the look-back of recent epochs

        Instant now = clock.instant();
        BatchOutcome o = Indexer.start(local.dynamo(), IndexerConfig.builder(index).clock(clock)
                .limits(new EpochLimits(2, 1 << 20, 1000)).build()) // a cold indexer: nothing cached
                .ingestSpans(List.of(record("Account-A", 2, 0, List.of("Opened", "Deposited", "Withdrawn"), List.of(T0, T0, now))));

        assertThat(o.complete()).isTrue();
        assertThat(o.duplicateEvents()).isZero();
        assertThat(new FeedReadback(local.dynamo(), index, 1).streams().get(A)).containsExactly("Opened", "Deposited", "Withdrawn");
    }

    @Test
    void a_lost_event_the_tip_still_holds_is_healed_from_it(LocalDynamo local) {
        String index = IndexerTables.index(local);
        Indexer indexer = indexer(local, index, false);
        indexer.ingestSpans(List.of(record("Account-A", 0, 0, List.of("Opened"), List.of(T0))));
        daysLater(indexer, 2);
        // event 1 (written at T0 + 1 s) never reached the feed; event 2 comes days later, its Tip holds 0..2
        Instant now = clock.instant();
        BatchOutcome o = indexer.ingestSpans(List.of(record("Account-A", 2, 0, List.of("Opened", "Deposited", "Withdrawn"),
                List.of(T0, T0.plusSeconds(1), now))));

        assertThat(o.complete()).isTrue();
        assertThat(o.partitions().get(0).healedEvents()).isEqualTo(1);
        assertThat(new FeedReadback(local.dynamo(), index, 1).streams().get(A)).containsExactly("Opened", "Deposited", "Withdrawn");
    }

    @Test
    void a_time_the_record_does_not_carry_is_read_from_the_store_and_the_lost_event_healed(LocalDynamo local) {
        String index = IndexerTables.index(local);
        String storeTable = IndexerTables.store(local);
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).clock(clock).build());
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(index).clock(clock)
                .limits(new EpochLimits(2, 1 << 20, 1000)).storeTable(storeTable).build());
        store.append(A, Expected.version(0), List.of(EventData.json("Opened", "{}")));
        indexer.ingestSpans(List.of(record("Account-A", 0, 0, List.of("Opened"), List.of(T0))));
        clock.advance(Duration.ofSeconds(1));
        store.append(A, Expected.version(1), List.of(EventData.json("Deposited", "{}"))); // its record is lost
        daysLater(indexer, 2);
        store.append(A, Expected.version(2), List.of(EventData.json("Withdrawn", "{}")));
        Instant now = clock.instant();
        // a large Lambda batch keeps the times of the new event and the one before it only: event 0's is not there
        BatchOutcome o = indexer.ingestSpans(List.of(record("Account-A", 2, 0, List.of("Opened", "Deposited", "Withdrawn"),
                java.util.Arrays.asList(null, T0.plusSeconds(1), now))));

        assertThat(o.complete()).isTrue();
        assertThat(o.partitions().get(0).healedEvents()).isEqualTo(1);
        assertThat(new FeedReadback(local.dynamo(), index, 1).streams().get(A)).containsExactly("Opened", "Deposited", "Withdrawn");
    }

    @Test
    void a_stream_whose_events_in_the_tip_are_in_no_epoch_of_their_time_is_refused_naming_it(LocalDynamo local) {
        String index = IndexerTables.index(local);
        Indexer indexer = indexer(local, index, false);
        indexer.ingestSpans(List.of(record("Account-A", 0, 0, List.of("Opened"), List.of(T0))));
        daysLater(indexer, 2);
        clock.advance(Duration.ofHours(1));
        Instant lost = clock.instant();
        daysLater(indexer, 2);
        // the Tip was calved: it holds events 1..2 only; event 1 (written at `lost`) is in no epoch open then,
        // and where the feed has event 0 cannot be told from the Tip: the gap is refused, not guessed
        Instant now = clock.instant();
        BatchOutcome o = indexer.ingestSpans(List.of(fresh("Account-B", now),
                record("Account-A", 2, 1, List.of("Deposited", "Withdrawn"), List.of(lost, now))));

        assertThat(o.complete()).isFalse();
        assertThat(o.errors()).singleElement().isInstanceOfSatisfying(FeedGapException.class, g -> {
            assertThat(g.stream()).isEqualTo(A);
            assertThat(g.actualIndex()).isEqualTo(2);
            assertThat(g).hasMessageContaining("never reached the feed").hasMessageContaining("Backfill");
        });
        Map<StreamName, List<String>> feed = new FeedReadback(local.dynamo(), index, 1).streams();
        assertThat(feed.get(A)).containsExactly("Opened");
        assertThat(feed.get(StreamName.parse("Account-B"))).as("what came before it is in").containsExactly("Opened");
    }

    @Test
    void a_stream_the_feed_never_held_is_healed_from_0_when_its_tip_holds_everything(LocalDynamo local) {
        String index = IndexerTables.index(local);
        Indexer indexer = indexer(local, index, false);
        daysLater(indexer, 1);
        Instant now = clock.instant();
        BatchOutcome o = indexer.ingestSpans(List.of(record("Account-A", 2, 0, List.of("Opened", "Deposited", "Withdrawn"),
                List.of(now.minusSeconds(2), now.minusSeconds(1), now))));

        assertThat(o.complete()).isTrue();
        assertThat(o.partitions().get(0).healedEvents()).isEqualTo(2);
        assertThat(new FeedReadback(local.dynamo(), index, 1).streams().get(A)).containsExactly("Opened", "Deposited", "Withdrawn");
    }

    @Test
    void with_the_store_declared_older_than_the_feed_such_a_stream_is_accepted_as_it_starts(LocalDynamo local) {
        String index = IndexerTables.index(local);
        Indexer indexer = indexer(local, index, true);
        daysLater(indexer, 2);
        Instant now = clock.instant();
        BatchOutcome o = indexer.ingestSpans(List.of(record("Account-A", 2, 1, List.of("Deposited", "Withdrawn"),
                List.of(now.minus(Duration.ofDays(30)), now))));

        assertThat(o.complete()).isTrue();
        assertThat(new FeedReadback(local.dynamo(), index, 1).streams().get(A)).containsExactly("Withdrawn");
    }

    @Test
    void when_the_tip_calved_at_the_append_the_previous_events_time_is_read_from_the_store(LocalDynamo local) {
        String index = IndexerTables.index(local);
        String storeTable = IndexerTables.store(local);
        // a store whose Tip calves at every second event: event 3's Tip holds event 3 alone
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).clock(clock).tipMaxEvents(1).build());
        for (long k = 0; k < 3; k++) {
            store.append(A, Expected.version(k), List.of(EventData.json("Deposited", "{}")));
        }
        IndexerConfig.Builder config = IndexerConfig.builder(index).clock(clock).limits(new EpochLimits(2, 1 << 20, 1000))
                .storeTable(storeTable);
        Indexer indexer = Indexer.start(local.dynamo(), config.build());
        indexer.ingestSpans(List.of(record("Account-A", 0, 0, List.of("Deposited", "Deposited", "Deposited"), List.of(T0, T0, T0))));
        daysLater(indexer, 3);
        daysLater(indexer, 3);
        store.append(A, Expected.version(3), List.of(EventData.json("Withdrawn", "{}")));
        Instant now = clock.instant();

        BatchOutcome o = Indexer.start(local.dynamo(), config.build())
                .ingestSpans(List.of(record("Account-A", 3, 3, List.of("Withdrawn"), List.of(now))));

        assertThat(o.complete()).isTrue();
        assertThat(new FeedReadback(local.dynamo(), index, 1).streams().get(A))
                .containsExactly("Deposited", "Deposited", "Deposited", "Withdrawn");
    }
}
