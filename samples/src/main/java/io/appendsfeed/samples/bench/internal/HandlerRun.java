package io.appendsfeed.samples.bench.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * What one handler process reported, ours ({@link HandlerDriver}) or equinox-js's ({@code lambda-batches.mjs}),
 * written by either as this record's JSON.
 *
 * @param mainMs milliseconds from spawning the process to its first line of code
 * @param loadedMs milliseconds from spawning to the handler ready (constructed / module imported)
 */
public record HandlerRun(long mainMs, long loadedMs, List<Batch> batches) {

    /**
     * One handler call.
     *
     * @param micros the handler call's time (a handler that reads the event's bytes has its reading in it)
     * @param refused writes refused by their condition
     * @param doneMs milliseconds from spawning the process to the end of this call
     * @param decodeMicros the runtime's decoding of the event before the call (node's {@code JSON.parse}); 0 for ours
     */
    public record Batch(int n, int records, long micros, double readUnits, double writeUnits, long reads, long writes,
                        long refused, long doneMs, long transactions, long decodeMicros) {

        /** What the function is billed for: the event decoded, then the handler. */
        public long invocationMicros() {
            return micros + decodeMicros;
        }
    }

    /**
     * @throws IllegalStateException when the handler never got ready
     * @throws UncheckedIOException when the file cannot be read as such
     */
    public static HandlerRun parse(Path file) {
        HandlerRun run;
        try {
            run = new ObjectMapper().readValue(file.toFile(), HandlerRun.class);
        } catch (IOException e) {
            throw new UncheckedIOException("driver output " + file + " unreadable: " + e.getMessage(), e);
        }
        if (run.loadedMs() < 0) {
            throw new IllegalStateException("driver output " + file + ": the handler did not start");
        }
        return run;
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
