package io.appendsfeed.samples.bench.internal.peer;

import io.appendsfeed.samples.bench.internal.IndexCheck;
import io.appendsfeed.samples.bench.internal.lambda.HandlerRun;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * One implementation's Lambda handler indexing every batch of one batch size, and the index it made.
 *
 * @param implementation {@code appendsfeed} or {@code equinox-js}
 * @param loadedMs from spawning the process to the handler being ready
 * @param firstBatchDoneMs from spawning the process to the end of the first batch
 * @param invocationRecordsPerSecond records over invocation time (the event decoded, then the handler), all
 *                                   batches; {@code invocationFirst10}/{@code invocationSteady} as below: what a
 *                                   function spends, where the handler time leaves out the runtime's decoding
 * @param recordsPerSecond records over handler time, all batches
 * @param first10RecordsPerSecond the first 10 batches after the cold start
 * @param steadyRecordsPerSecond the second half of the batches
 * @param writeUnitsPerEvent WCU per event stored (and indexed)
 * @param floorWriteUnitsPerEvent the least writing this index's {@code Ingested} bodies can cost, per event
 * @param overFloor writeUnitsPerEvent ÷ floorWriteUnitsPerEvent
 * @param readsPerBatch read calls per batch, all batches; {@code steadyReadsPerBatch} the second half
 * @param writesPerBatch write calls per batch; {@code transactionsPerBatch} how many of them were
 *                       {@code TransactWriteItems} (items charged twice), all and in the steady state
 * @param conditionFailures writes refused by their condition (no other indexer runs: a non-zero count is a bug)
 * @param problems how the index differs from the store; empty when every event is in it once, in order
 * @param decodeShare the share of the invocation time spent decoding the event before the handler ran
 * @param runs how many runs (each into a fresh index) this is the median of, by {@code invocationRecordsPerSecond};
 *             {@code recordsPerSecondMin}/{@code Max} the spread of their invocation rates
 */
public record Indexing(String implementation, String indexTable, int batches, long records, long loadedMs, long firstBatchDoneMs,
                       double invocationRecordsPerSecond, double invocationFirst10RecordsPerSecond,
                       double invocationSteadyRecordsPerSecond, double decodeShare,
                       double handlerSeconds, double recordsPerSecond, double first10RecordsPerSecond,
                       double steadyRecordsPerSecond, double writeUnits, double writeUnitsPerEvent, long floorWriteUnits,
                       double floorWriteUnitsPerEvent, double overFloor, double readUnits, double readUnitsPerBatch,
                       double steadyReadUnitsPerBatch, double readsPerBatch, double steadyReadsPerBatch,
                       double writesPerBatch, double transactionsPerBatch, double steadyTransactionsPerBatch,
                       long conditionFailures, long spans, long ingested, int epochs, long storedBytes, long indexedEvents,
                       List<String> problems, int runs, double recordsPerSecondMin, double recordsPerSecondMax) {

    public Indexing {
        problems = List.copyOf(problems);
    }

    public boolean correct() {
        return problems.isEmpty();
    }

    /** The run with the median rate (the lower middle of an even count); the problems of every run's index. */
    static Indexing median(String implementation, List<HandlerRun> runs, List<IndexCheck> checks, long storedEvents) {
        List<Integer> order = IntStream.range(0, runs.size()).boxed()
                .sorted(Comparator.comparingDouble(i -> HandlerRun.invocationRate(runs.get(i).batches()))).toList();
        int m = order.get((order.size() - 1) / 2);
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < checks.size(); i++) {
            for (String p : checks.get(i).problems()) {
                problems.add((checks.size() > 1 ? "run " + (i + 1) + ": " : "") + p);
            }
        }
        return of(implementation, runs.get(m), checks.get(m), storedEvents, problems, runs.size(),
                HandlerRun.invocationRate(runs.get(order.get(0)).batches()),
                HandlerRun.invocationRate(runs.get(order.get(order.size() - 1)).batches()));
    }

    private static Indexing of(String implementation, HandlerRun run, IndexCheck check, long storedEvents, List<String> problems,
                               int runs, double min, double max) {
        List<HandlerRun.Batch> steady = run.secondHalf();
        double wcuPerEvent = run.writeUnits() / storedEvents;
        double floorPerEvent = (double) check.floorWriteUnits() / storedEvents;
        return new Indexing(implementation, check.indexTable(), run.batches().size(), run.records(), run.loadedMs(),
                run.batches().isEmpty() ? -1 : run.batches().get(0).doneMs(),
                HandlerRun.invocationRate(run.batches()), HandlerRun.invocationRate(run.first(10)), HandlerRun.invocationRate(steady),
                decodeShare(run.batches()), run.handlerSeconds(), run.recordsPerSecond(),
                HandlerRun.rate(run.first(10)), HandlerRun.rate(steady), run.writeUnits(), wcuPerEvent,
                check.floorWriteUnits(), floorPerEvent, floorPerEvent == 0 ? 0 : wcuPerEvent / floorPerEvent,
                run.readUnits(), HandlerRun.readUnitsPerBatch(run.batches()), HandlerRun.readUnitsPerBatch(steady),
                HandlerRun.readsPerBatch(run.batches()), HandlerRun.readsPerBatch(steady),
                HandlerRun.writesPerBatch(run.batches()), HandlerRun.transactionsPerBatch(run.batches()),
                HandlerRun.transactionsPerBatch(steady), run.conditionFailures(),
                check.spans(), check.ingested(), check.epochs(), check.storedBytes(), check.events(), problems, runs, min, max);
    }

    private static double decodeShare(List<HandlerRun.Batch> batches) {
        long decode = batches.stream().mapToLong(HandlerRun.Batch::decodeMicros).sum();
        long all = batches.stream().mapToLong(HandlerRun.Batch::invocationMicros).sum();
        return all == 0 ? 0 : (double) decode / all;
    }
}
