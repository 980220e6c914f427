package io.appendsfeed.samples.bench.internal;

import java.util.Arrays;

/** Nearest-rank percentiles of a sample. */
final class Percentiles {

    private final double[] sorted;

    Percentiles(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values to take percentiles of");
        }
        this.sorted = values.clone();
        Arrays.sort(sorted);
    }

    /** @param p in (0, 100] */
    double at(double p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    double max() {
        return sorted[sorted.length - 1];
    }
}
