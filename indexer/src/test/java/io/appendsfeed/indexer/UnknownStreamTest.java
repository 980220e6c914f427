package io.appendsfeed.indexer;

import io.appendsfeed.model.feed.AppendsEpoch.EpochLimits;
import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Span;
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
 * Streams the active epoch does not hold: a stream quiet for days goes on where the feed has it,
 * warm or cold, without a duplicate whatever its writer's clock says; a gap in a stream the epochs
 * read hold is healed from its Tip or refused; a stream the feed never held (every epoch read) is
 * healed from 0; and one past the horizon is taken as it starts.
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

    /** A span as a Streams record gives it: the Tip's types from {@code tipFirst}, the record made at {@code at} per DynamoDB. */
    private SourceSpan record(String stream, long index, long tipFirst, List<String> tipTypes, Instant at) {
        Span tip = new Span(StreamName.parse(stream), tipFirst, tipTypes);
        return new SourceSpan(tip.from(index), () -> tip, at, stream + "@" + index);
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
        assertThat(indexer.ingestSpans(List.of(record("Account-A", 0, 0, List.of("Opened", "Deposited"), T0))).complete()).isTrue();
        daysLater(indexer, 3);
        daysLater(indexer, 3); // the epoch holding it closed days ago: past the look-back of recent epochs

        Instant now = clock.instant();
        BatchOutcome o = Indexer.start(local.dynamo(), IndexerConfig.builder(index).clock(clock)
                .limits(new EpochLimits(2, 1 << 20, 1000)).build()) // a cold indexer: nothing cached
                .ingestSpans(List.of(record("Account-A", 2, 0, List.of("Opened", "Deposited", "Withdrawn"), now)));

        assertThat(o.complete()).isTrue();
        assertThat(o.duplicateEvents()).isZero();
        assertThat(o.healedEvents()).as("events the feed has are not taken from the Tip again").isZero();
        assertThat(new FeedReadback(local.dynamo(), index, 1).streams().get(A)).containsExactly("Opened", "Deposited", "Withdrawn");
    }

    @Test
    void a_lost_event_the_tip_still_holds_is_healed_from_it_when_the_epochs_read_hold_the_stream(LocalDynamo local) {
        String index = IndexerTables.index(local);
        Indexer indexer = indexer(local, index, false);
        indexer.ingestSpans(List.of(record("Account-A", 0, 0, List.of("Opened"), T0)));
        daysLater(indexer, 2); // this indexer closed the epochs since: it holds what they say
        // event 1 never reached the feed; event 2 comes days later, its Tip holds 0..2
        BatchOutcome o = indexer.ingestSpans(List.of(record("Account-A", 2, 0, List.of("Opened", "Deposited", "Withdrawn"),
                clock.instant())));

        assertThat(o.complete()).isTrue();
        assertThat(o.partitions().get(0).healedEvents()).isEqualTo(1);
        assertThat(new FeedReadback(local.dynamo(), index, 1).streams().get(A)).containsExactly("Opened", "Deposited", "Withdrawn");
    }

    @Test
    void a_gap_the_tip_no_longer_holds_in_a_stream_the_epochs_read_hold_is_refused_naming_it(LocalDynamo local) {
        String index = IndexerTables.index(local);
        Indexer indexer = indexer(local, index, false);
        indexer.ingestSpans(List.of(record("Account-A", 0, 0, List.of("Opened"), T0)));
        daysLater(indexer, 2);
        // event 1 never reached the feed, and the Tip was calved: it holds event 2 alone
        Instant now = clock.instant();
        BatchOutcome o = indexer.ingestSpans(List.of(fresh("Account-B", now), record("Account-A", 2, 2, List.of("Withdrawn"), now)));

        assertThat(o.complete()).isFalse();
        assertThat(o.errors()).singleElement().isInstanceOfSatisfying(FeedGapException.class, g -> {
            assertThat(g.stream()).isEqualTo(A);
            assertThat(g.expectedIndex()).isEqualTo(1);
            assertThat(g.actualIndex()).isEqualTo(2);
            assertThat(g).hasMessageContaining("never delivered").hasMessageContaining("Backfill");
        });
        Map<StreamName, List<String>> feed = new FeedReadback(local.dynamo(), index, 1).streams();
        assertThat(feed.get(A)).containsExactly("Opened");
        assertThat(feed.get(StreamName.parse("Account-B"))).as("what came before it is in").containsExactly("Opened");
    }

    @Test
    void a_redelivery_long_after_its_epoch_closed_adds_nothing_warm_or_cold(LocalDynamo local) {
        String index = IndexerTables.index(local);
        Indexer indexer = indexer(local, index, false);
        SourceSpan first = record("Account-A", 0, 0, List.of("Opened", "Deposited"), T0);
        indexer.ingestSpans(List.of(first));
        for (int k = 0; k < 20; k++) {
            clock.advance(Duration.ofMinutes(1)); // other streams close an epoch a minute, past every clock-skew allowance
            indexer.ingestSpans(List.of(fresh("Other-" + others++, clock.instant()), fresh("Other-" + others++, clock.instant())));
        }
        clock.advance(Duration.ofHours(20)); // redelivered from the 24 h of Streams, the record made at T0 per DynamoDB

        BatchOutcome warm = indexer.ingestSpans(List.of(first));
        BatchOutcome cold = indexer(local, index, false).ingestSpans(List.of(first));

        assertThat(List.of(warm, cold)).allSatisfy(o -> {
            assertThat(o.complete()).isTrue();
            assertThat(o.duplicateEvents()).isEqualTo(2);
            assertThat(o.acceptedEvents()).isZero();
        });
        assertThat(new FeedReadback(local.dynamo(), index, 1).streams().get(A)).containsExactly("Opened", "Deposited");
    }

    @Test
    void a_stream_the_feed_never_held_is_healed_from_0_when_its_tip_holds_everything(LocalDynamo local) {
        String index = IndexerTables.index(local);
        Indexer indexer = indexer(local, index, false);
        daysLater(indexer, 1);
        Instant now = clock.instant();
        BatchOutcome o = indexer.ingestSpans(List.of(record("Account-A", 2, 0, List.of("Opened", "Deposited", "Withdrawn"), now)));

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
        BatchOutcome o = indexer.ingestSpans(List.of(record("Account-A", 2, 1, List.of("Deposited", "Withdrawn"), now)));

        assertThat(o.complete()).isTrue();
        assertThat(new FeedReadback(local.dynamo(), index, 1).streams().get(A)).containsExactly("Withdrawn");
    }
}
