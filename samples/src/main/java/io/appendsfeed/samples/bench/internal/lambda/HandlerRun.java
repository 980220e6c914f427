package io.appendsfeed.samples.bench.internal.lambda;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What one driver process reported: when it was up, when its handler was ready, and each batch's
 * handler time and metered calls. Both drivers (ours in a JVM, equinox-js's in node) write the same
 * lines; see {@code HandlerDriver}.
 *
 * @param mainMs milliseconds from spawning the process to its first line of code (-1 when not reported)
 * @param loadedMs milliseconds from spawning to the handler being ready (constructed / module imported)
 */
public record HandlerRun(long mainMs, long loadedMs, List<Batch> batches) {

    /**
     * One handler call.
     *
     * @param micros the handler call's time (decoding the event before the call is not in it; a handler that
     *               reads the event's bytes itself has its reading in it)
     * @param reads read calls (GetItem, Query, ...) the handler made
     * @param writes write calls, refused ones included
     * @param conditionFailures writes refused by their condition
     * @param doneMs milliseconds from spawning the process to the end of this call
     * @param transactions {@code TransactWriteItems} calls among the writes
     * @param decodeMicros the time the runtime took to decode the event's JSON before calling the handler
     *                     (node's {@code JSON.parse}, the Java runtime's serializer); 0 when the handler takes the bytes
     */
    public record Batch(int n, int records, long micros, double readUnits, double writeUnits, long reads, long writes,
                        long conditionFailures, long doneMs, long transactions, long decodeMicros) {

        /** What the function spends on the batch: the event decoded, then the handler. */
        public long invocationMicros() {
            return micros + decodeMicros;
        }
    }

    public HandlerRun {
        batches = List.copyOf(batches);
    }

    /**
     * @throws IllegalStateException when a line is not of the drivers' format
     * @throws UncheckedIOException when the file cannot be read
     */
    public static HandlerRun parse(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("driver output " + file + " unreadable: " + e.getMessage(), e);
        }
        long main = -1;
        long loaded = -1;
        List<Batch> batches = new ArrayList<>();
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t");
            try {
                switch (f[0]) {
                    case "main" -> main = Long.parseLong(f[1]);
                    case "loaded" -> loaded = Long.parseLong(f[1]);
                    case "batch" -> batches.add(new Batch(Integer.parseInt(f[1]), Integer.parseInt(f[2]), Long.parseLong(f[3]),
                            Double.parseDouble(f[4]), Double.parseDouble(f[5]), Long.parseLong(f[6]), Long.parseLong(f[7]),
                            Long.parseLong(f[8]), Long.parseLong(f[9]), Long.parseLong(f[10]), Long.parseLong(f[11])));
                    default -> throw new IllegalStateException("unknown line");
                }
            } catch (RuntimeException e) {
                throw new IllegalStateException("driver output " + file + ": line '" + line + "' is not main/loaded/batch with its fields: "
                        + e.getMessage(), e);
            }
        }
        if (loaded < 0) {
            throw new IllegalStateException("driver output " + file + " has no 'loaded' line: the handler did not start");
        }
        return new HandlerRun(main, loaded, batches);
    }

    public long records() {
        return records(batches);
    }

    /** Records per second of handler time over all batches. */
    public double recordsPerSecond() {
        return rate(batches);
    }

    /** The first {@code n} batches after the cold start. */
    public List<Batch> first(int n) {
        return batches.subList(0, Math.min(n, batches.size()));
    }

    /** The steady state: the second half of the batches. */
    public List<Batch> secondHalf() {
        return batches.subList(batches.size() / 2, batches.size());
    }

    public double handlerSeconds() {
        return batches.stream().mapToLong(Batch::micros).sum() / 1e6;
    }

    public double readUnits() {
        return batches.stream().mapToDouble(Batch::readUnits).sum();
    }

    public double writeUnits() {
        return batches.stream().mapToDouble(Batch::writeUnits).sum();
    }

    public long conditionFailures() {
        return batches.stream().mapToLong(Batch::conditionFailures).sum();
    }

    public static long records(List<Batch> bs) {
        return bs.stream().mapToLong(Batch::records).sum();
    }

    /** Records per second of handler time; 0 for no batches. */
    public static double rate(List<Batch> bs) {
        long micros = bs.stream().mapToLong(Batch::micros).sum();
        return micros == 0 ? 0 : records(bs) * 1e6 / micros;
    }

    /** Records per second of invocation time (the event decoded, then the handler); 0 for no batches. */
    public static double invocationRate(List<Batch> bs) {
        long micros = bs.stream().mapToLong(Batch::invocationMicros).sum();
        return micros == 0 ? 0 : records(bs) * 1e6 / micros;
    }

    public static double readsPerBatch(List<Batch> bs) {
        return bs.isEmpty() ? 0 : (double) bs.stream().mapToLong(Batch::reads).sum() / bs.size();
    }

    public static double transactionsPerBatch(List<Batch> bs) {
        return bs.isEmpty() ? 0 : (double) bs.stream().mapToLong(Batch::transactions).sum() / bs.size();
    }

    public static double writesPerBatch(List<Batch> bs) {
        return bs.isEmpty() ? 0 : (double) bs.stream().mapToLong(Batch::writes).sum() / bs.size();
    }

    public static double readUnitsPerBatch(List<Batch> bs) {
        return bs.isEmpty() ? 0 : bs.stream().mapToDouble(Batch::readUnits).sum() / bs.size();
    }
}
