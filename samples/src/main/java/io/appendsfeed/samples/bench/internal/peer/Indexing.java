package io.appendsfeed.samples.bench.internal.peer;

import io.appendsfeed.samples.bench.internal.IndexCheck;
import io.appendsfeed.samples.bench.internal.lambda.HandlerRun;
import java.util.List;

/**
 * One implementation's Lambda handler indexing every batch of one batch size, and the index it made.
 *
 * @param implementation {@code appendsfeed} or {@code equinox-js}
 * @param loadedMs from spawning the process to the handler being ready
 * @param firstBatchDoneMs from spawning the process to the end of the first batch
 * @param recordsPerSecond records over handler time, all batches
 * @param first10RecordsPerSecond the first 10 batches after the cold start
 * @param steadyRecordsPerSecond the second half of the batches
 * @param writeUnitsPerEvent WCU per event stored (and indexed)
 * @param floorWriteUnitsPerEvent the least writing this index's {@code Ingested} bodies can cost, per event
 * @param overFloor writeUnitsPerEvent ÷ floorWriteUnitsPerEvent
 * @param readsPerBatch read calls per batch, all batches; {@code steadyReadsPerBatch} the second half
 * @param conditionFailures writes refused by their condition (no other indexer runs: a non-zero count is a bug)
 * @param problems how the index differs from the store; empty when every event is in it once, in order
 */
public record Indexing(String implementation, String indexTable, int batches, long records, long loadedMs, long firstBatchDoneMs,
                       double handlerSeconds, double recordsPerSecond, double first10RecordsPerSecond,
                       double steadyRecordsPerSecond, double writeUnits, double writeUnitsPerEvent, long floorWriteUnits,
                       double floorWriteUnitsPerEvent, double overFloor, double readUnits, double readUnitsPerBatch,
                       double steadyReadUnitsPerBatch, double readsPerBatch, double steadyReadsPerBatch,
                       long conditionFailures, long spans, long ingested, int epochs, long storedBytes, long indexedEvents,
                       List<String> problems) {

    public Indexing {
        problems = List.copyOf(problems);
    }

    public boolean correct() {
        return problems.isEmpty();
    }

    static Indexing of(String implementation, HandlerRun run, IndexCheck check, long storedEvents) {
        List<HandlerRun.Batch> steady = run.secondHalf();
        double wcuPerEvent = run.writeUnits() / storedEvents;
        double floorPerEvent = (double) check.floorWriteUnits() / storedEvents;
        return new Indexing(implementation, check.indexTable(), run.batches().size(), run.records(), run.loadedMs(),
                run.batches().isEmpty() ? -1 : run.batches().get(0).doneMs(), run.handlerSeconds(), run.recordsPerSecond(),
                HandlerRun.rate(run.first(10)), HandlerRun.rate(steady), run.writeUnits(), wcuPerEvent,
                check.floorWriteUnits(), floorPerEvent, floorPerEvent == 0 ? 0 : wcuPerEvent / floorPerEvent,
                run.readUnits(), HandlerRun.readUnitsPerBatch(run.batches()), HandlerRun.readUnitsPerBatch(steady),
                HandlerRun.readsPerBatch(run.batches()), HandlerRun.readsPerBatch(steady), run.conditionFailures(),
                check.spans(), check.ingested(), check.epochs(), check.storedBytes(), check.events(), check.problems());
    }
}
