package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.samples.bench.internal.lambda.LambdaColdStartBench;
import io.appendsfeed.samples.bench.internal.peer.PeerBench;
import io.appendsfeed.samples.bench.internal.peer.ReadLeg;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything one run measured; serialised as the JSON results file. A scenario not run is null
 * (left out of the JSON) or an empty list.
 */
public record Results(Machine machine, Params params, WorkloadFigures workload, List<IndexBench.Run> index,
                      ReadBench.Result read, LatencyBench.Result latency, List<ColdStartBench.Result> coldStart,
                      MemoryBench.Result memory, ContentionBench.Result contention, LambdaColdStartBench.Result lambdaColdStart,
                      PeerBench.Result peer, double totalSeconds, double loadAverageEnd) {

    /**
     * Where the figures come from.
     *
     * @param loadAverageStart the system's 1-minute load average when the run started (-1 when the OS
     *                         does not tell): on a shared machine, how many others wanted the cores
     */
    public record Machine(String date, int processors, long physicalMemoryBytes, long maxHeapBytes, String java,
                          String vm, String os, String dynamoDbLocal, double loadAverageStart) {}

    /** The events written for the index and read scenarios. */
    public record WorkloadFigures(long events, int streams, double seconds, double eventsPerSecond,
                                  double writeUnitsPerEvent) {}

    public Results {
        index = index == null ? List.of() : List.copyOf(index);
        coldStart = coldStart == null ? List.of() : List.copyOf(coldStart);
    }

    /** What a check found wrong: an index that is not the store, a reader that did not deliver it. Empty when all is well. */
    public List<String> problems() {
        List<String> out = new ArrayList<>();
        if (contention != null) {
            contention.runs().forEach(r -> r.problems().forEach(p -> out.add("contention, " + r.indexers() + " indexers: " + p)));
        }
        if (peer != null) {
            for (PeerBench.BatchSizeRun run : peer.runs()) {
                for (var i : List.of(run.appendsfeed(), run.equinoxJs())) {
                    i.problems().forEach(p -> out.add("peer K=" + run.batchSize() + ", " + i.implementation() + "'s index: " + p));
                }
                for (ReadLeg l : run.reads()) {
                    l.problems().forEach(p -> out.add("peer K=" + run.batchSize() + ", " + l.reader() + "'s reader on the "
                            + l.index() + " index, " + l.mode() + ": " + p));
                }
            }
        }
        return out;
    }
}
