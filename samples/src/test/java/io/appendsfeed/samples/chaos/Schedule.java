package io.appendsfeed.samples.chaos;

import io.appendsfeed.model.StreamName;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One randomized run, derived entirely from its seed: a tiny workload (streams, appends, event
 * sizes, Tip threshold so that streams calve, partitions, epoch size) and how hard each part is
 * faulted. Same seed, same schedule.
 *
 * @param appends per append: the stream and the sizes of its events' bodies
 * @param writeFaults chance that a store call of the writers faults
 * @param indexFaults chance that a call of the indexers faults
 * @param readFaults chance that a call of the readers faults
 * @param handlerFailures chance that a handler call fails after applying its events
 * @param crashAfter the reader crashes (before committing) once it has applied this many events
 */
record Schedule(long seed, int partitions, int epochMaxEvents, int tipMaxBytes, List<StreamName> streams,
                List<Append> appends, double writeFaults, double indexFaults, double readFaults,
                double handlerFailures, int crashAfter, int maxBatchEvents, boolean loadBodies) {

    /** One append: {@code bodies} holds each event's body size in bytes. */
    record Append(StreamName stream, List<Integer> bodies) {}

    /** Category and id with characters that are valid in a stream name but unusual: accents, CJK, emoji, spaces, slashes. */
    private static final List<String> CATEGORIES = List.of("Account", "Cart", "Ünïcødé", "注文", "Odd Name");
    private static final List<String> IDS = List.of("1", "42", "a/b:c", "🚀 x", "id-with-dashes", "%20+&");

    static Schedule of(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int partitions = 1 + r.nextInt(3);
        List<StreamName> streams = new ArrayList<>();
        int count = 1 + r.nextInt(4);
        while (streams.size() < count) {
            StreamName s = StreamName.of(CATEGORIES.get(r.nextInt(CATEGORIES.size())), IDS.get(r.nextInt(IDS.size())) + streams.size());
            streams.add(s);
        }
        List<Append> appends = new ArrayList<>();
        int n = 2 + r.nextInt(11);
        int events = 0;
        for (int k = 0; k < n; k++) {
            List<Integer> bodies = new ArrayList<>();
            int m = 1 + r.nextInt(3);
            for (int e = 0; e < m; e++) {
                bodies.add(r.nextInt(10) == 0 ? 200 + r.nextInt(400) : r.nextInt(40));
            }
            events += m;
            appends.add(new Append(streams.get(r.nextInt(streams.size())), bodies));
        }
        return new Schedule(seed, partitions, 2 + r.nextInt(4), 300 + r.nextInt(1500), List.copyOf(streams), List.copyOf(appends),
                chance(r, 0.3), chance(r, 0.3), chance(r, 0.15), chance(r, 0.15), r.nextInt(events + 1),
                1 + r.nextInt(3), r.nextBoolean());
    }

    /** Zero a quarter of the time, so that fault-free runs are covered too. */
    private static double chance(SplittableRandom r, double max) {
        return r.nextInt(4) == 0 ? 0 : r.nextDouble() * max;
    }

    @Override
    public String toString() {
        return "seed " + seed + ": " + partitions + " partition(s), epochs of " + epochMaxEvents + ", Tips of " + tipMaxBytes
                + " B, " + streams.size() + " stream(s), " + appends.size() + " appends; faults: write " + pct(writeFaults)
                + ", index " + pct(indexFaults) + ", read " + pct(readFaults) + ", handler " + pct(handlerFailures)
                + "; reader crash after " + crashAfter + " events";
    }

    private static String pct(double p) {
        return Math.round(p * 100) + "%";
    }
}
