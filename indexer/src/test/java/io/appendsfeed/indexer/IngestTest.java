package io.appendsfeed.indexer;

import io.appendsfeed.model.feed.AppendsIndex;
import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.feed.AppendsEpoch.EpochLimits;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.AppendsIndex.IndexEvent;
import io.appendsfeed.model.feed.AppendsIndex.IndexState;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.model.testing.faults.Fault;
import io.appendsfeed.model.testing.faults.FaultInjector;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.DoubleAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalDynamoExtension.class)
class IngestTest {

    static SourceSpan in(String stream, long index, String... types) {
        return SourceSpan.of(Span.of(stream, index, types), stream + "@" + index);
    }

    static IndexerConfig.Builder config(String table) {
        return IndexerConfig.builder(table);
    }

    @Test
    void creating_the_index_records_the_partition_count_and_another_count_is_refused(LocalDynamo local) {
        String table = IndexerTables.index(local);
        Indexer.start(local.dynamo(), config(table).partitions(3).build());
        StoreClient index = new StoreClient(local.dynamo(), StoreConfig.builder(table).reservedStreams(true).build());
        List<IndexEvent> events = index.readAll(FeedStreams.INDEX, Read.forward(0)).stream()
                .map(e -> AppendsIndex.decode(e.type(), e.data())).toList();
        assertThat(events).containsExactly(new IndexEvent.Started(PartitionId.of(0), EpochId.ZERO),
                new IndexEvent.Started(PartitionId.of(1), EpochId.ZERO), new IndexEvent.Started(PartitionId.of(2), EpochId.ZERO));
        assertThat(IndexState.fold(events).partitions()).isEqualTo(3);
        assertThat(index.readTip(FeedStreams.INDEX, true).orElseThrow().unfolds()).extracting(u -> u.type()).containsExactly("Snapshotted");

        Indexer.start(local.dynamo(), config(table).partitions(3).build()); // same count: fine
        assertThatThrownBy(() -> Indexer.start(local.dynamo(), config(table).partitions(4).build()))
                .isInstanceOf(Indexer.PartitionCountMismatchException.class)
                .hasMessageContaining("created with 3 partition(s)").hasMessageContaining("configured with 4");
    }

    @Test
    void redelivered_batch_adds_nothing(LocalDynamo local) {
        String table = IndexerTables.index(local);
        Indexer indexer = Indexer.start(local.dynamo(), config(table).build());
        List<SourceSpan> batch = List.of(in("Account-1", 0, "Opened", "Deposited"), in("Account-2", 0, "Opened"));
        BatchOutcome first = indexer.ingestSpans(batch);
        assertThat(first.complete()).isTrue();
        assertThat(first.acceptedEvents()).isEqualTo(3);
        assertThat(first.writes()).isEqualTo(1);

        BatchOutcome again = indexer.ingestSpans(batch);
        assertThat(again.complete()).isTrue();
        assertThat(again.writes()).isZero();
        assertThat(again.duplicateEvents()).isEqualTo(3);
        new FeedReadback(local.dynamo(), table, 1).assertExactly(Map.of(
                StreamName.parse("Account-1"), List.of("Opened", "Deposited"), StreamName.parse("Account-2"), List.of("Opened")));
    }

    @Test
    void batch_whose_prefix_was_ingested_writes_only_the_rest(LocalDynamo local) {
        String table = IndexerTables.index(local);
        Indexer indexer = Indexer.start(local.dynamo(), config(table).build());
        indexer.ingestSpans(List.of(in("Account-1", 0, "a", "b")));
        BatchOutcome o = indexer.ingestSpans(List.of(in("Account-1", 0, "a", "b"), in("Account-1", 1, "b", "c"), in("Account-1", 3, "d")));
        assertThat(o.acceptedEvents()).isEqualTo(2);
        assertThat(o.duplicateEvents()).isEqualTo(3);
        new FeedReadback(local.dynamo(), table, 1).assertExactly(Map.of(StreamName.parse("Account-1"), List.of("a", "b", "c", "d")));
    }

    @Test
    void gap_fails_the_batch_from_the_span_naming_stream_and_indexes(LocalDynamo local) {
        String table = IndexerTables.index(local);
        Indexer indexer = Indexer.start(local.dynamo(), config(table).build());
        indexer.ingestSpans(List.of(in("Account-1", 0, "a")));
        BatchOutcome o = indexer.ingestSpans(List.of(in("Account-2", 0, "x"), in("Account-1", 5, "f"), in("Account-3", 0, "y")));
        assertThat(o.complete()).isFalse();
        assertThat(o.firstNotIngested()).isEqualTo("Account-1@5");
        assertThat(o.errors()).singleElement().isInstanceOfSatisfying(FeedGapException.class, g -> {
            assertThat(g.stream()).isEqualTo(StreamName.parse("Account-1"));
            assertThat(g.expectedIndex()).isEqualTo(1);
            assertThat(g.actualIndex()).isEqualTo(5);
        });
        new FeedReadback(local.dynamo(), table, 1).assertExactly(Map.of(
                StreamName.parse("Account-1"), List.of("a"), StreamName.parse("Account-2"), List.of("x")));
    }

    @Test
    void epochs_roll_over_at_the_limits_and_the_index_follows(LocalDynamo local) {
        String table = IndexerTables.index(local);
        Indexer indexer = Indexer.start(local.dynamo(), config(table).limits(new EpochLimits(2, 1_000_000, 1000)).build());
        for (int k = 0; k < 5; k++) {
            assertThat(indexer.ingestSpans(List.of(in("Account-1", k, "e" + k))).complete()).isTrue();
        }
        FeedReadback feed = new FeedReadback(local.dynamo(), table, 1);
        assertThat(feed.epochs()).extracting(e -> e.events().size()).containsExactly(3, 3, 1);
        assertThat(feed.epochs().get(0).events().get(2)).isInstanceOf(EpochEvent.Closed.class);
        feed.assertExactly(Map.of(StreamName.parse("Account-1"), List.of("e0", "e1", "e2", "e3", "e4")));
        StoreClient index = new StoreClient(local.dynamo(), StoreConfig.builder(table).reservedStreams(true).build());
        IndexState state = IndexState.fold(index.readAll(FeedStreams.INDEX, Read.forward(0)).stream()
                .map(e -> AppendsIndex.decode(e.type(), e.data())).toList());
        assertThat(state.activeEpoch(PartitionId.ZERO)).isEqualTo(EpochId.of(2));
    }

    @Test
    void residual_of_the_batch_that_closes_an_epoch_goes_to_the_next_in_the_same_call(LocalDynamo local) {
        String table = IndexerTables.index(local);
        Indexer indexer = Indexer.start(local.dynamo(), config(table).limits(new EpochLimits(100, 1_000_000, 2)).build());
        BatchOutcome o = indexer.ingestSpans(List.of(in("A-1", 0, "a"), in("B-1", 0, "b"), in("C-1", 0, "c"), in("D-1", 0, "d"), in("E-1", 0, "e")));
        assertThat(o.complete()).isTrue();
        assertThat(o.epochsClosed()).isEqualTo(2);
        assertThat(o.partitions().get(0).epoch()).isEqualTo(EpochId.of(2));
        assertThat(new FeedReadback(local.dynamo(), table, 1).streams()).hasSize(5);
    }

    @Test
    void redelivery_after_the_epoch_moved_on_adds_nothing(LocalDynamo local) {
        String table = IndexerTables.index(local);
        IndexerConfig cfg = config(table).limits(new EpochLimits(1, 1_000_000, 1000)).build();
        Indexer indexer = Indexer.start(local.dynamo(), cfg);
        List<SourceSpan> batch = List.of(in("Account-1", 0, "a", "b"));
        indexer.ingestSpans(batch);
        indexer.ingestSpans(List.of(in("Account-2", 0, "x")));
        indexer.ingestSpans(List.of(in("Account-3", 0, "y")));
        // three epochs later, the first batch again: to a warm indexer, then to a cold one
        assertThat(indexer.ingestSpans(batch).writes()).isZero();
        DoubleAdder rcu = new DoubleAdder();
        Indexer cold = Indexer.start(local.dynamo(), cfg.toBuilder().meter((op, t, c) -> rcu.add(c.readUnits())).build());
        BatchOutcome o = cold.ingestSpans(List.of(in("Account-1", 1, "b"), in("Account-1", 0, "a", "b")));
        assertThat(o.writes()).isZero();
        assertThat(o.duplicateEvents()).isEqualTo(3);
        System.out.printf("cold start + look-back over 3 closed epochs: %.1f RCU%n", rcu.sum());
        new FeedReadback(local.dynamo(), table, 1).assertExactly(Map.of(StreamName.parse("Account-1"), List.of("a", "b"),
                StreamName.parse("Account-2"), List.of("x"), StreamName.parse("Account-3"), List.of("y")));
    }

    @Test
    void redeliveries_across_many_closed_epochs_read_each_closed_epoch_once(LocalDynamo local) {
        String table = IndexerTables.index(local);
        IndexerConfig cfg = config(table).limits(new EpochLimits(1, 1_000_000, 1000)).build();
        Indexer indexer = Indexer.start(local.dynamo(), cfg);
        int epochs = 20;
        for (int k = 0; k < epochs; k++) {
            indexer.ingestSpans(List.of(in("Account-" + k, 0, "opened")));
        }
        java.util.concurrent.atomic.AtomicInteger queries = new java.util.concurrent.atomic.AtomicInteger();
        Indexer cold = Indexer.start(local.dynamo(), cfg.toBuilder()
                .meter((op, t, c) -> { if (op.equals("Query")) queries.incrementAndGet(); }).build());
        long duplicates = 0;
        // oldest first: each redelivery looks further back than the one before
        for (int k = 0; k < epochs; k++) {
            BatchOutcome o = cold.ingestSpans(List.of(in("Account-" + k, 0, "opened")));
            assertThat(o.writes()).isZero();
            duplicates += o.duplicateEvents();
        }
        assertThat(duplicates).isEqualTo(epochs);
        System.out.printf("%d redeliveries over %d closed epochs, cold: %d queries%n", epochs, epochs, queries.get());
        // each closed epoch read once (a load is at most two queries), not once per redelivery
        assertThat(queries.get()).isLessThanOrEqualTo(2 * (epochs + 1));
    }

    @Test
    void crash_between_closing_an_epoch_and_starting_the_next_heals_on_the_next_call(LocalDynamo local) {
        String table = IndexerTables.index(local);
        AtomicBoolean crashIndexWrites = new AtomicBoolean(false);
        Set<String> writes = Set.of("PutItem", "UpdateItem", "TransactWriteItems");
        FaultInjector faults = new FaultInjector(call -> crashIndexWrites.get() && writes.contains(call.operation())
                && call.request().toString().contains(FeedStreams.INDEX.value()) ? Optional.of(Fault.failBefore()) : Optional.empty());
        IndexerConfig cfg = config(table).limits(new EpochLimits(1, 1_000_000, 1000)).build();
        Indexer indexer = Indexer.start(faults.wrap(local.dynamo()), cfg);
        crashIndexWrites.set(true);
        BatchOutcome crashed = indexer.ingestSpans(List.of(in("Account-1", 0, "a")));
        assertThat(crashed.complete()).as("the span is durably in the closed epoch").isTrue();
        assertThat(crashed.errors()).as("but Started could not be recorded").hasSize(1);
        crashIndexWrites.set(false);

        Indexer restarted = Indexer.start(local.dynamo(), cfg);
        BatchOutcome o = restarted.ingestSpans(List.of(in("Account-1", 0, "a"), in("Account-1", 1, "b")));
        assertThat(o.complete()).isTrue();
        assertThat(o.acceptedEvents()).isEqualTo(1);
        new FeedReadback(local.dynamo(), table, 1).assertExactly(Map.of(StreamName.parse("Account-1"), List.of("a", "b")));
    }
}
