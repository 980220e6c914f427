package io.appendsfeed.samples.chaos;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.testing.faults.FaultInjector;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What the chaos runs did, summed for the report printed at the end. */
final class ChaosTotals {

    int runs;
    long events;
    long appendsAbandoned;
    long ambiguousWrites;
    long batches;
    long races;
    long indexerCrashes;
    long epochs;
    long readerCrashes;
    long cleanReruns;
    long handlerFailures;
    long redelivered;
    long checkpointObservations;
    final Map<String, Long> faultsByPart = new TreeMap<>();
    final Map<String, Long> faultsByKind = new TreeMap<>();

    void add(Schedule s, Map<StreamName, List<String>> truth, ChaosWriter writer, FaultInjector writeFaults,
             ChaosIndexing indexing, FaultInjector indexFaults, FeedContents feed, ChaosReading reading,
             FaultInjector readFaults, Projection projection, CheckpointWatch watch) {
        runs++;
        events += truth.values().stream().mapToLong(List::size).sum();
        appendsAbandoned += writer.abandoned;
        ambiguousWrites += writer.ambiguous;
        batches += indexing.batches;
        races += indexing.races;
        indexerCrashes += indexing.crashes;
        epochs += feed.epochs;
        readerCrashes += reading.crashed ? 1 : 0;
        cleanReruns += reading.neededCleanRun ? 1 : 0;
        handlerFailures += projection.failures.get();
        redelivered += projection.delivered.get() - projection.appliedEvents();
        checkpointObservations += watch.observations;
        faults("writers", writeFaults);
        faults("indexers", indexFaults);
        faults("readers", readFaults);
        faultsByPart.merge("readers", (long) -reading.crashFaults, Long::sum);
        faultsByKind.merge("FailBefore", (long) -reading.crashFaults, Long::sum);
    }

    private void faults(String part, FaultInjector injector) {
        faultsByPart.merge(part, (long) injector.injected().size(), Long::sum);
        injector.countsByKind().forEach((kind, n) -> faultsByKind.merge(kind, n, Long::sum));
    }

    long faults() {
        return faultsByPart.values().stream().mapToLong(Long::longValue).sum();
    }

    String report(Duration took) {
        return String.format(java.util.Locale.ROOT,
                "chaos: %d runs in %.1f s; %d events checked (applied exactly once, in order, feed without gap or duplicate);"
                        + "%n  faults injected: %d %s by %s;"
                        + "%n  writers: %d ambiguous or failed appends resolved by re-reading, %d appends abandoned;"
                        + "%n  indexers: %d batches, %d races of two indexers, %d crashes, %d epochs;"
                        + "%n  readers: %d crashes before commit, %d handler failures, %d events redelivered and skipped,"
                        + " %d clean re-runs needed, %d checkpoint observations, none backwards",
                runs, took.toMillis() / 1000.0, events, faults(), faultsByKind, faultsByPart, ambiguousWrites, appendsAbandoned,
                batches, races, indexerCrashes, epochs, readerCrashes, handlerFailures, redelivered, cleanReruns,
                checkpointObservations);
    }
}
