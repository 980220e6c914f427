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
import java.util.concurrent.atomic.AtomicBoolean;
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
 * restart cold, say more is waiting or not, with the schedule's {@link Indexer#moveTips()} from this
 * process or another), once it has delivered everything the feed holds each event once, in stream order,
 * without gaps. No epoch Tip is ever ahead of its calves; after a batch that says nothing more is waiting
 * (from a process that has seen every batch since the last schedule) and after the schedule, none is behind.
 * Epochs are tiny so that all of this happens across epoch boundaries.
 */
class ExactlyOncePropertyTest {

    /** One thing the source does. */
    sealed interface Step {
        record Deliver(int count, boolean moreWaiting) implements Step {}
        record Bisect(int count, boolean moreWaiting) implements Step {}
        record Redeliver(int back, int count) implements Step {}
        record Crash(int count, boolean writeLands, boolean moreWaiting) implements Step {}
        record Schedule(boolean otherProcess) implements Step {}
    }

    static final Set<String> WRITES = Set.of("PutItem", "UpdateItem", "TransactWriteItems");

    @Property(tries = 20, shrinking = ShrinkingMode.OFF)
    void each_event_once_in_order_no_gaps(@ForAll("appends") List<Integer> appends, @ForAll("steps") List<Step> steps) {
        LocalDynamo local = LocalDynamo.shared();
        String table = IndexerTables.index(local);
        AtomicReference<Fault> armed = new AtomicReference<>();
        AtomicBoolean tipFaulted = new AtomicBoolean(); // a closed epoch's Tip may then stay behind (moved when next loaded)
        FaultInjector faults = new FaultInjector(call -> {
            if (!WRITES.contains(call.operation()) || !call.request().toString().contains("$AppendsEpoch")) {
                return Optional.empty();
            }
            Optional<Fault> fault = Optional.ofNullable(armed.getAndSet(null));
            tipFaulted.compareAndSet(false, fault.isPresent() && call.operation().equals("UpdateItem"));
            return fault;
        });
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
        boolean othersLeftTips = false; // a process that died may have left Tips behind that this one does not know of
        for (Step step : steps) {
            boolean settled;
            if (step instanceof Step.Schedule t) {
                (t.otherProcess() ? Indexer.start(local.dynamo(), cfg) : indexer).moveTips();
                othersLeftTips = false;
                settled = true;
            } else if (step instanceof Step.Redeliver r) {
                int from = Math.max(0, acked - r.back());
                settled = indexer.ingestSpans(records.subList(from, Math.min(records.size(), from + r.count()))).complete();
            } else if (step instanceof Step.Crash c) {
                armed.set(c.writeLands() ? Fault.failAfter() : Fault.failBefore());
                acked = deliver(indexer, records, acked, c.count(), c.moreWaiting()).acked;
                armed.set(null);
                indexer = Indexer.start(dynamo, cfg); // the process died: a cold indexer takes over
                othersLeftTips = true;
                settled = false;
            } else {
                boolean more = step instanceof Step.Deliver d ? d.moreWaiting() : ((Step.Bisect) step).moreWaiting();
                int count = step instanceof Step.Deliver d ? d.count() : Math.max(1, ((Step.Bisect) step).count() / 2);
                Delivered o = deliver(indexer, records, acked, count, more);
                acked = o.acked;
                settled = o.complete && !more;
            }
            int behind = EpochTipTest.tipsBehind(local, table, 2); // asserts that none is ahead
            if (settled && !othersLeftTips && !tipFaulted.get()) {
                assertThat(behind).as("Tips behind their calves after %s", step).isZero();
            }
        }
        for (int attempt = 0; acked < records.size() && attempt < 5; attempt++) {
            acked = deliver(indexer, records, acked, records.size(), false).acked;
        }
        assertThat(acked).as("everything is acknowledged in the end").isEqualTo(records.size());
        new FeedReadback(local.dynamo(), table, 2).assertExactly(expected);
        Indexer.start(local.dynamo(), cfg).moveTips();
        int behind = EpochTipTest.tipsBehind(local, table, 2);
        if (!tipFaulted.get()) {
            assertThat(behind).as("Tips behind their calves after the schedule").isZero();
        }
    }

    /** @param complete a batch was delivered and wholly ingested */
    private record Delivered(int acked, boolean complete) {}

    /** Delivers from the acknowledged point; returns the new acknowledged point. */
    private static Delivered deliver(Indexer indexer, List<SourceSpan> records, int acked, int count, boolean moreWaiting) {
        int to = Math.min(records.size(), acked + count);
        if (acked >= to) {
            return new Delivered(acked, false); // nothing to deliver: no batch
        }
        BatchOutcome o = indexer.ingestSpans(records.subList(acked, to), moreWaiting);
        return new Delivered(o.complete() ? to : Integer.parseInt(o.firstNotIngested()), o.complete());
    }

    @Provide
    Arbitrary<List<Integer>> appends() {
        return Arbitraries.integers().between(0, 11).list().ofMinSize(1).ofMaxSize(14);
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<Integer> n = Arbitraries.integers().between(1, 6);
        Arbitrary<Boolean> flag = Arbitraries.of(true, false);
        Arbitrary<Step> step = Arbitraries.oneOf(
                Combinators.combine(n, flag).as(Step.Deliver::new),
                Combinators.combine(n, flag).as(Step.Bisect::new),
                Combinators.combine(n, n).as(Step.Redeliver::new),
                Combinators.combine(n, flag, flag).as(Step.Crash::new),
                flag.map(Step.Schedule::new));
        return step.list().ofMinSize(1).ofMaxSize(10);
    }
}
