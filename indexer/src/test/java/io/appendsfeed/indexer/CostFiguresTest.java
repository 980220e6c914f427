package io.appendsfeed.indexer;

import io.appendsfeed.model.feed.AppendsEpoch;
import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.DoubleAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Measures (prints, never asserts) what ingestion costs in capacity units; the README quotes these figures. */
@ExtendWith(LocalDynamoExtension.class)
class CostFiguresTest {

    @Test
    void capacity_per_batch_and_per_cold_start_is_measured(LocalDynamo local) {
        String table = IndexerTables.index(local);
        DoubleAdder wcu = new DoubleAdder();
        DoubleAdder rcu = new DoubleAdder();
        IndexerConfig cfg = IndexerConfig.builder(table).meter((op, t, c) -> { wcu.add(c.writeUnits()); rcu.add(c.readUnits()); }).build();
        Indexer indexer = Indexer.start(local.dynamo(), cfg);
        Map<StreamName, List<String>> expected = new LinkedHashMap<>();
        List<SourceSpan> last = List.of();
        int batches = 200;
        wcu.reset();
        for (int b = 0; b < batches; b++) {
            List<SourceSpan> batch = new ArrayList<>();
            for (int s = 0; s < 10; s++) {
                StreamName stream = StreamName.parse("Account-" + (b * 7 + s) % 500);
                List<String> types = expected.computeIfAbsent(stream, x -> new ArrayList<>());
                batch.add(SourceSpan.of(new Span(stream, types.size(), List.of("Deposited")), b + "/" + s));
                types.add("Deposited");
            }
            assertThat(indexer.ingestSpans(batch).complete()).isTrue();
            last = batch;
        }
        double perBatch = wcu.sum() / batches;
        rcu.reset();
        Indexer cold = Indexer.start(local.dynamo(), cfg);
        BatchOutcome o = cold.ingestSpans(last);
        assertThat(o.writes()).isZero();
        FeedReadback feed = new FeedReadback(local.dynamo(), table, 1);
        long epochBytes = feed.epochs().get(0).events().stream()
                .mapToLong(e -> io.appendsfeed.model.feed.AppendsEpoch.encode(e).length).sum();
        System.out.printf("FIGURES: %d batches of 10 spans: %.1f WCU per batch; cold start over an epoch of %d events,"
                + " %d KiB of Ingested bodies, %d streams: %.1f RCU%n", batches, perBatch, batches, epochBytes / 1024,
                expected.size(), rcu.sum());
        feed.assertExactly(expected);
    }
}
