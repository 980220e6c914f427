package io.appendsfeed.samples.bench.internal;

import java.util.List;

/**
 * Everything one run measured; serialised as the JSON results file. A scenario not run is null
 * (or an empty list).
 */
public record Results(Machine machine, Params params, WorkloadFigures workload, List<IndexBench.Run> index,
                      ReadBench.Result read, LatencyBench.Result latency, List<ColdStartBench.Result> coldStart,
                      MemoryBench.Result memory, double totalSeconds) {

    /** Where the figures come from. */
    public record Machine(String date, int processors, long physicalMemoryBytes, long maxHeapBytes, String java,
                          String vm, String os, String dynamoDbLocal) {}

    /** The events written for the index and read scenarios. */
    public record WorkloadFigures(long events, int streams, double seconds, double eventsPerSecond,
                                  double writeUnitsPerEvent) {}

    public Results {
        index = index == null ? List.of() : List.copyOf(index);
        coldStart = coldStart == null ? List.of() : List.copyOf(coldStart);
    }
}
