package io.appendsfeed.reader.internal;

import java.util.List;
import java.util.Objects;

/**
 * How many of a group's partitions one live instance should hold: the floor of partitions ÷
 * instances, plus one for the first (partitions mod instances) instances in owner order. The shares
 * add up to the partition count exactly and every instance computes the same ones from the same
 * list of live instances, so the group settles instead of passing partitions round.
 */
public final class FairShare {

    private FairShare() {}

    /**
     * @param live the group's live instances (any order; {@code self} counts even when missing)
     * @return how many partitions {@code self} should hold
     */
    public static int of(int partitions, List<String> live, String self) {
        Objects.requireNonNull(self, "self");
        if (partitions < 0) {
            throw new IllegalArgumentException("partitions must be >= 0, was " + partitions);
        }
        List<String> all = live.contains(self) ? live : concat(live, self);
        List<String> sorted = all.stream().distinct().sorted().toList();
        int n = sorted.size();
        int base = partitions / n;
        int extra = partitions % n;
        return base + (sorted.indexOf(self) < extra ? 1 : 0);
    }

    private static List<String> concat(List<String> live, String self) {
        return java.util.stream.Stream.concat(live.stream(), java.util.stream.Stream.of(self)).toList();
    }
}
