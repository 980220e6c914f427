package io.appendsfeed.indexer;

import io.appendsfeed.model.feed.AppendsEpoch.EpochLimits;
import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalDynamoExtension.class)
class RaceTest {

    /**
     * Four indexers (as four Lambda instances or pollers would be) are each handed every batch of one
     * partition, at the same time, with small epochs so that closes race too.
     */
    @Test
    void four_indexers_racing_on_one_partition_leave_each_event_once_in_order(LocalDynamo local) throws Exception {
        String table = IndexerTables.index(local);
        IndexerConfig cfg = IndexerConfig.builder(table).limits(new EpochLimits(4, 1_000_000, 1000)).build();
        List<Indexer> indexers = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            indexers.add(Indexer.start(local.dynamo(), cfg));
        }
        Map<StreamName, List<String>> expected = new LinkedHashMap<>();
        List<List<SourceSpan>> batches = new ArrayList<>();
        for (int b = 0; b < 12; b++) {
            List<SourceSpan> batch = new ArrayList<>();
            for (int s = 0; s < 3; s++) {
                StreamName stream = StreamName.parse("Account-" + s);
                List<String> types = expected.computeIfAbsent(stream, x -> new ArrayList<>());
                String type = "E" + types.size();
                batch.add(SourceSpan.of(new Span(stream, types.size(), List.of(type)), stream + "@" + types.size()));
                types.add(type);
            }
            batches.add(batch);
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (List<SourceSpan> batch : batches) {
                CountDownLatch go = new CountDownLatch(1);
                List<CompletableFuture<BatchOutcome>> running = new ArrayList<>();
                for (Indexer indexer : indexers) {
                    running.add(CompletableFuture.supplyAsync(() -> {
                        try {
                            go.await();
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                        return indexer.ingestSpans(batch);
                    }, pool));
                }
                go.countDown();
                for (CompletableFuture<BatchOutcome> f : running) {
                    assertThat(f.get().complete()).as("every racer ends with the batch in the feed").isTrue();
                }
                long accepted = running.stream().mapToLong(f -> f.join().acceptedEvents()).sum();
                assertThat(accepted).as("the racers together wrote each event of the batch once").isEqualTo(3);
            }
        } finally {
            pool.shutdownNow();
        }
        new FeedReadback(local.dynamo(), table, 1).assertExactly(expected);
    }

    /**
     * As shards' indexers race (each with streams of its own): each conflict folds the item the refused
     * write returned and reads on from there, then decides again; each event lands once.
     */
    @Test
    void a_writer_that_loses_twice_follows_the_winner_each_time_and_writes_once(LocalDynamo local) {
        String table = IndexerTables.index(local);
        Indexer other = Indexer.start(local.dynamo(), IndexerConfig.builder(table).build());
        List<String> ops = new java.util.concurrent.CopyOnWriteArrayList<>();
        Runnable[] onRead = {() -> { }};
        Indexer racer = Indexer.start(local.dynamo(), IndexerConfig.builder(table).meter(new io.appendsfeed.model.store.CapacityMeter() {
            @Override
            public void consumed(String operation, String t, io.appendsfeed.model.store.CapacityMeter.Capacity capacity) {
                ops.add(operation);
                if (operation.equals("Query")) {
                    Runnable r = onRead[0];
                    onRead[0] = () -> { };
                    r.run(); // the other indexer writes again between this read and the racer's next write
                }
            }

            @Override
            public void refused(String operation, String t) {
                ops.add("refused " + operation);
            }
        }).build());
        StreamName mine = StreamName.parse("Account-mine");
        StreamName theirs = StreamName.parse("Account-theirs");
        assertThat(racer.ingestSpans(List.of(span(mine, 0))).complete()).isTrue();
        assertThat(other.ingestSpans(List.of(span(theirs, 0))).complete()).isTrue();
        onRead[0] = () -> assertThat(other.ingestSpans(List.of(span(theirs, 1))).complete()).isTrue();
        ops.clear();

        BatchOutcome o = racer.ingestSpans(List.of(span(mine, 1)));

        assertThat(o.complete()).isTrue();
        assertThat(o.conflicts()).isEqualTo(2);
        assertThat(ops).as("refused at the version it had; a read from there; refused again; a read; the write after the winner")
                .containsExactly("refused PutItem", "Query", "refused PutItem", "Query", "PutItem", "UpdateItem");
        new FeedReadback(local.dynamo(), table, 1).assertExactly(Map.of(mine, List.of("E0", "E1"), theirs, List.of("E0", "E1")));
    }

    private static SourceSpan span(StreamName stream, long index) {
        return SourceSpan.of(new Span(stream, index, List.of("E" + index)), stream + "@" + index);
    }
}
