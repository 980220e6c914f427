package io.appendsfeed.samples.bench.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * What one handler process reported, ours ({@link HandlerDriver}) or equinox-js's
 * ({@code lambda-batches.mjs}), in the same tab-separated lines: {@code main <ms>}, {@code loaded <ms>},
 * then per batch {@code batch <n> <records> <handler µs> <RCU> <WCU> <reads> <writes> <refused> <done ms>
 * <transactions> <decode µs>}.
 *
 * @param mainMs milliseconds from spawning the process to its first line of code
 * @param loadedMs milliseconds from spawning to the handler ready (constructed / module imported)
 */
public record HandlerRun(long mainMs, long loadedMs, List<Batch> batches) {

    /**
     * One handler call.
     *
     * @param micros the handler call's time (a handler that reads the event's bytes has its reading in it)
     * @param decodeMicros the runtime's decoding of the event before the call (node's {@code JSON.parse}); 0 for ours
     * @param doneMs milliseconds from spawning the process to the end of this call
     */
    public record Batch(int n, int records, long micros, double readUnits, double writeUnits, long reads, long writes,
                        long refused, long doneMs, long transactions, long decodeMicros) {

        /** What the function is billed for: the event decoded, then the handler. */
        public long invocationMicros() {
            return micros + decodeMicros;
        }
    }

    /**
     * @throws IllegalStateException when a line is not of that format, or the handler never got ready
     * @throws UncheckedIOException when the file cannot be read
     */
    public static HandlerRun parse(Path file) {
        long main = -1;
        long loaded = -1;
        List<Batch> batches = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(file)) {
                String[] f = line.split("\t");
                switch (f[0]) {
                    case "" -> { }
                    case "main" -> main = Long.parseLong(f[1]);
                    case "loaded" -> loaded = Long.parseLong(f[1]);
                    case "batch" -> batches.add(new Batch(Integer.parseInt(f[1]), Integer.parseInt(f[2]), Long.parseLong(f[3]),
                            Double.parseDouble(f[4]), Double.parseDouble(f[5]), Long.parseLong(f[6]), Long.parseLong(f[7]),
                            Long.parseLong(f[8]), Long.parseLong(f[9]), Long.parseLong(f[10]), Long.parseLong(f[11])));
                    default -> throw new IllegalStateException("driver output " + file + ": unknown line '" + line + "'");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("driver output " + file + " unreadable: " + e.getMessage(), e);
        }
        if (loaded < 0) {
            throw new IllegalStateException("driver output " + file + " has no 'loaded' line: the handler did not start");
        }
        return new HandlerRun(main, loaded, List.copyOf(batches));
    }

    /** The first {@code n} batches after the cold start. */
    public List<Batch> first(int n) {
        return batches.subList(0, Math.min(n, batches.size()));
    }

    /** The steady state: the second half of the batches. */
    public List<Batch> secondHalf() {
        return batches.subList(batches.size() / 2, batches.size());
    }

    public static double sum(List<Batch> bs, ToDoubleFunction<Batch> f) {
        return bs.stream().mapToDouble(f).sum();
    }

    /** Per batch; 0 for no batches. */
    public static double perBatch(List<Batch> bs, ToDoubleFunction<Batch> f) {
        return bs.isEmpty() ? 0 : sum(bs, f) / bs.size();
    }

    /** Records per second of {@code time} (µs per batch); 0 for no time. */
    public static double rate(List<Batch> bs, ToDoubleFunction<Batch> micros) {
        double t = sum(bs, micros);
        return t == 0 ? 0 : sum(bs, Batch::records) * 1e6 / t;
    }
}
