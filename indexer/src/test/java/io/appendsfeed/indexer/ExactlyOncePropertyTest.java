package io.appendsfeed.indexer;

import io.appendsfeed.model.feed.AppendsEpoch.EpochLimits;
import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.faults.Fault;
import io.appendsfeed.model.testing.faults.FaultInjector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Whatever the source does (redeliver old ranges, bisect, crash with the write landed or not and
 * restart cold), once it has delivered everything the feed holds each event once, in stream order,
 * without gaps. Epochs are tiny so that all of this happens across epoch boundaries.
 */
class ExactlyOncePropertyTest {

    /** One thing the source does. */
    sealed interface Step {
        record Deliver(int count) implements Step {}
        record Bisect(int count) implements Step {}
        record Redeliver(int back, int count) implements Step {}
        record Crash(int count, boolean writeLands) implements Step {}
    }

    static final Set<String> WRITES = Set.of("PutItem", "UpdateItem", "TransactWriteItems");

    @Property(tries = 20, shrinking = ShrinkingMode.OFF)
    void each_event_once_in_order_no_gaps(@ForAll("appends") List<Integer> appends, @ForAll("steps") List<Step> steps) {
        LocalDynamo local = LocalDynamo.shared();
        String table = IndexerTables.index(local);
        AtomicReference<Fault> armed = new AtomicReference<>();
        FaultInjector faults = new FaultInjector(call -> WRITES.contains(call.operation())
                && call.request().toString().contains("$AppendsEpoch") ? Optional.ofNullable(armed.getAndSet(null)) : Optional.empty());
        DynamoDbClient dynamo = faults.wrap(local.dynamo());
        IndexerConfig cfg = IndexerConfig.builder(table).partitions(2).limits(new EpochLimits(3, 1_000_000, 1000)).build();

        // the source: appends of 1..3 events to 4 streams, as records in write order
        Map<StreamName, List<String>> expected = new LinkedHashMap<>();
        List<SourceSpan> records = new ArrayList<>();
        for (int a : appends) {
            StreamName stream = StreamName.parse("Account-" + (a % 4));
            List<String> types = expected.computeIfAbsent(stream, x -> new ArrayList<>());
            List<String> added = new ArrayList<>();
            for (int k = 0; k <= a / 4; k++) {
                added.add("E" + (types.size() + k));
            }
            records.add(SourceSpan.of(new Span(stream, types.size(), added), Integer.toString(records.size())));
            types.addAll(added);
        }

        Indexer indexer = Indexer.start(dynamo, cfg);
        int acked = 0;
        for (Step step : steps) {
            if (step instanceof Step.Redeliver r) {
                int from = Math.max(0, acked - r.back());
                indexer.ingestSpans(records.subList(from, Math.min(records.size(), from + r.count())));
                continue;
            }
            int count = step instanceof Step.Deliver d ? d.count() : step instanceof Step.Bisect b ? Math.max(1, b.count() / 2)
                    : ((Step.Crash) step).count();
            if (step instanceof Step.Crash c) {
                armed.set(c.writeLands() ? Fault.failAfter() : Fault.failBefore());
            }
            acked = deliver(indexer, records, acked, count);
            if (step instanceof Step.Crash) {
                armed.set(null);
                indexer = Indexer.start(dynamo, cfg); // the process died: a cold indexer takes over
            }
        }
        for (int attempt = 0; acked < records.size() && attempt < 5; attempt++) {
            acked = deliver(indexer, records, acked, records.size());
        }
        assertThat(acked).as("everything is acknowledged in the end").isEqualTo(records.size());
        new FeedReadback(local.dynamo(), table, 2).assertExactly(expected);
    }

    /** Delivers from the acknowledged point; returns the new acknowledged point. */
    private static int deliver(Indexer indexer, List<SourceSpan> records, int acked, int count) {
        int to = Math.min(records.size(), acked + count);
        if (acked >= to) {
            return acked;
        }
        BatchOutcome o = indexer.ingestSpans(records.subList(acked, to));
        return o.complete() ? to : Integer.parseInt(o.firstNotIngested());
    }

    @Provide
    Arbitrary<List<Integer>> appends() {
        return Arbitraries.integers().between(0, 11).list().ofMinSize(1).ofMaxSize(14);
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<Integer> n = Arbitraries.integers().between(1, 6);
        Arbitrary<Step> step = Arbitraries.oneOf(
                n.map(Step.Deliver::new),
                n.map(Step.Bisect::new),
                Combinators.combine(n, n).as(Step.Redeliver::new),
                Combinators.combine(n, Arbitraries.of(true, false)).as(Step.Crash::new));
        return step.list().ofMinSize(1).ofMaxSize(10);
    }
}
