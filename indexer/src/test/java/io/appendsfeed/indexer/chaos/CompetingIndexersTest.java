package io.appendsfeed.indexer.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.indexer.FeedReadback;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.SourceSpan;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Found by the chaos property test (samples): two indexers take turns on one partition. */
@ExtendWith(LocalDynamoExtension.class)
class CompetingIndexersTest {

    static SourceSpan span(long index, String... types) {
        return SourceSpan.of(Span.of("Account-1", index, types), "Account-1@" + index);
    }

    @Test
    void a_gap_seen_on_an_indexers_stale_state_is_checked_against_the_epoch_before_it_is_reported(LocalDynamo local) {
        String table = IndexerTables.index(local);
        IndexerConfig config = IndexerConfig.builder(table).build();
        Indexer a = Indexer.start(local.dynamo(), config);
        Indexer b = Indexer.start(local.dynamo(), config);
        assertThat(a.ingestSpans(List.of(span(0, "E0", "E1"))).complete()).isTrue();
        // the source moves on to the other indexer (a lease taken over, another Lambda container): it writes 2..3
        assertThat(b.ingestSpans(List.of(span(0, "E0", "E1"), span(2, "E2", "E3"))).complete()).isTrue();
        // and back: the first indexer still believes the stream is at 2, but the epoch holds 0..3, so 4 is next, not a gap
        BatchOutcome o = a.ingestSpans(List.of(span(4, "E4")));

        assertThat(o.errors()).isEmpty();
        assertThat(o.complete()).isTrue();
        assertThat(o.acceptedEvents()).isEqualTo(1);
        new FeedReadback(local.dynamo(), table, 1).assertExactly(Map.of(StreamName.parse("Account-1"), List.of("E0", "E1", "E2", "E3", "E4")));
    }

    @Test
    void a_real_gap_is_still_reported_after_checking(LocalDynamo local) {
        String table = IndexerTables.index(local);
        Indexer a = Indexer.start(local.dynamo(), IndexerConfig.builder(table).build());
        assertThat(a.ingestSpans(List.of(span(0, "E0"))).complete()).isTrue();
        BatchOutcome o = a.ingestSpans(List.of(span(3, "E3")));
        assertThat(o.complete()).isFalse();
        assertThat(o.errors()).singleElement().satisfies(e -> assertThat(e).hasMessageContaining("events 1..2 were never delivered"));
    }
}
