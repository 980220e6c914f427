package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.samples.bench.internal.HandlerDriver.Run;
import io.appendsfeed.samples.bench.internal.HandlerDriver.Run.Batch;
import io.appendsfeed.samples.bench.internal.StoreFacts.IndexCheck;
import java.util.List;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;

/**
 * One implementation's Lambda handler indexing every batch of one size: the run with the median invocation rate of
 * {@code runs} (each into a fresh index), with the spread of their rates.
 *
 * @param invocationRecordsPerSecond records over invocation time (the event decoded as the runtime does it, then the
 *                                   handler: what Lambda bills); {@code first10} the first 10 batches, {@code steady}
 *                                   the second half
 * @param decodeShare the share of the invocation spent decoding the event before the handler ran
 * @param refused writes refused by their condition (no other indexer runs: more than 0 is a bug)
 * @param problems how the index differs from the store (every run's); empty when every event is in it once, in order
 */
public record Indexing(String implementation, String indexTable, int batches, long records, int runs,
                       double invocationRecordsPerSecond, double invocationRecordsPerSecondMin,
                       double invocationRecordsPerSecondMax, double invocationFirst10RecordsPerSecond,
                       double invocationSteadyRecordsPerSecond, double decodeShare, long loadedMs, double writeUnitsPerEvent,
                       double readUnitsPerEvent, double writesPerBatch, double transactionsPerBatch, long refused, long spans,
                       long indexedEvents, Cost cost, List<String> problems) {

    /** The median run (the lower middle of an even count) of {@code runs}, whose indexes {@code checks} checked. */
    static Indexing median(String implementation, List<Run> runs, List<IndexCheck> checks, long events, int memoryMb) {
        ToDoubleFunction<Run> rate = r -> invocationRate(r.batches());
        int m = Report.median(IntStream.range(0, runs.size()).boxed().toList(), i -> rate.applyAsDouble(runs.get(i)));
        List<String> problems = IntStream.range(0, checks.size()).boxed()
                .flatMap(i -> checks.get(i).problems().stream().map(p -> "run " + (i + 1) + ": " + p)).toList();
        Run run = runs.get(m);
        IndexCheck check = checks.get(m);
        List<Batch> all = run.batches();
        double invocationMicros = sum(all, Batch::invocationMicros);
        double wcuPerEvent = sum(all, Batch::writeUnits) / events;
        double rcuPerEvent = sum(all, Batch::readUnits) / events;
        long refused = (long) sum(all, Batch::refused);
        // Lambda bills each invocation's duration rounded up to the millisecond
        double billedSeconds = sum(all, b -> Math.ceil(b.invocationMicros() / 1000.0)) / 1000;
        return new Indexing(implementation, check.indexTable(), all.size(), (long) sum(all, Batch::records), runs.size(),
                invocationRate(all), runs.stream().mapToDouble(rate).min().orElseThrow(),
                runs.stream().mapToDouble(rate).max().orElseThrow(), invocationRate(all.subList(0, Math.min(10, all.size()))),
                invocationRate(all.subList(all.size() / 2, all.size())),
                invocationMicros == 0 ? 0 : sum(all, Batch::decodeMicros) / invocationMicros, run.loadedMs(), wcuPerEvent,
                rcuPerEvent, perBatch(all, Batch::writes), perBatch(all, Batch::transactions), refused, check.spans(), check.events(),
                Cost.indexing(wcuPerEvent + (double) refused / events, rcuPerEvent, billedSeconds / events, memoryMb), problems);
    }

    private static double invocationRate(List<Batch> bs) {
        return rate(bs, Batch::invocationMicros);
    }

    private static double sum(List<Batch> bs, ToDoubleFunction<Batch> f) {
        return bs.stream().mapToDouble(f).sum();
    }

    /** Per batch; 0 for no batches. */
    private static double perBatch(List<Batch> bs, ToDoubleFunction<Batch> f) {
        return bs.isEmpty() ? 0 : sum(bs, f) / bs.size();
    }

    /** Records per second of {@code micros} (per batch); 0 for no time. */
    private static double rate(List<Batch> bs, ToDoubleFunction<Batch> micros) {
        double t = sum(bs, micros);
        return t == 0 ? 0 : sum(bs, Batch::records) * 1e6 / t;
    }

    /**
     * Dollars per million events at AWS's on-demand list prices (us-east-1): write units (a refused write at 1 WCU, the
     * least AWS charges), read units, and Lambda GB-seconds (billed invocation time at the template's memory).
     */
    public record Cost(double writeUnits, double readUnits, double lambda, double total, int lambdaMemoryMb) {

        /** On-demand write request units, $ per million. */
        public static final double USD_PER_MILLION_WRITE_UNITS = 1.25;
        /** On-demand read request units, $ per million. */
        public static final double USD_PER_MILLION_READ_UNITS = 0.25;
        /** Lambda duration, $ per GB-second (x86; arm64, the template's default, is 20% less). */
        public static final double USD_PER_GB_SECOND = 0.0000166667;

        static Cost indexing(double wcuPerEvent, double rcuPerEvent, double billedSecondsPerEvent, int memoryMb) {
            double w = wcuPerEvent * USD_PER_MILLION_WRITE_UNITS;
            double r = reading(rcuPerEvent);
            double l = billedSecondsPerEvent * 1e6 * memoryMb / 1024.0 * USD_PER_GB_SECOND;
            return new Cost(w, r, l, w + r + l, memoryMb);
        }

        /** Dollars per million events read at {@code rcuPerEvent}. */
        static double reading(double rcuPerEvent) {
            return rcuPerEvent * USD_PER_MILLION_READ_UNITS;
        }
    }
}
