package io.appendsfeed.samples.bench.internal.lambda;

import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.lambda.IndexerStreamHandler;
import io.appendsfeed.indexer.lambda.LambdaSettings;
import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.metrics.EmfMetrics;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Runs in a fresh JVM whose class path is the shaded Lambda jar and the benchmark's classes (of which
 * it loads only this class and the metering client): does what the Lambda Java runtime does (constructs
 * {@link IndexerStreamHandler}, the one the template deploys, with settings from the environment, and
 * hands it each event's bytes) over
 * every {@code batch-*.json} of a directory in name order, and writes one line per step in the
 * format of the benchmark's equinox-js driver ({@code lambda-batches.mjs}), so that
 * {@link HandlerProcess} reads both alike (the batch line's last shared column is the time taken to
 * decode the event before the handler was called: 0 for the stream handler, which reads the bytes
 * itself inside its handler time), plus three columns of its own at the end of each batch line:
 * the handler thread's CPU time and the collectors' time during the call, in microseconds, and the
 * kilobytes the handler thread allocated (where the handler time went; see BENCHMARKS.md, "Indexer profile").
 *
 * <p>Usage: {@code HandlerDriver plain|metered <batch dir> <output file>}. {@code plain} uses the no-argument constructor Lambda calls; {@code metered} builds
 * the same handler from the same settings the way that constructor does (its metrics, the store table
 * it checks records against), with a {@link CallMeter} as the indexer's capacity meter, so that every
 * call's capacity is summed per batch.
 * Environment: the handler's ({@code APPENDS_INDEX_TABLE}, {@code APPENDS_STORE_TABLE},
 * {@code APPENDS_DYNAMODB_ENDPOINT}, {@code APPENDS_BATCH_SIZE}, {@code AWS_REGION}) and {@code BENCH_SPAWNED_AT}, epoch milliseconds when the parent started the
 * process. Exit 3 when a batch reports a failure (every batch must be ingested whole).
 */
public final class HandlerDriver {

    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    private HandlerDriver() {
    }

    /** A handler as the runtime calls it: bytes in, response out; and the time it took to decode the event first, if it does. */
    private interface Call {
        /** @return the batch item failure's identifier, or null when none */
        String handle(byte[] event, long[] decodeMicros) throws IOException;
    }

    /** Hands one event file to the handler as the runtime does, and returns its batch line. */
    private static String handle(int n, Path file, Call handler, CallMeter metered, long spawnedAt) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        double rcu = metered == null ? 0 : metered.tally().readUnits();
        double wcu = metered == null ? 0 : metered.tally().writeUnits();
        long reads = metered == null ? 0 : metered.reads();
        long writes = metered == null ? 0 : metered.writes();
        long failures = metered == null ? 0 : metered.conditionFailures();
        long transactions = metered == null ? 0 : metered.transactions();
        long[] decode = new long[3]; // µs decoding; then the handler call's start, its CPU and allocations at its start
        String failure = handler.handle(bytes, decode);
        long micros = decode[1];
        long cpuMicros = decode[2];
        if (failure != null) {
            System.err.println(file + ": the handler reported a batch item failure at " + failure + " (see the log above)");
            System.exit(3);
        }
        return String.join("\t", "batch", Integer.toString(n), Integer.toString(records(bytes)),
                Long.toString(micros),
                Double.toString(metered == null ? 0 : metered.tally().readUnits() - rcu),
                Double.toString(metered == null ? 0 : metered.tally().writeUnits() - wcu),
                Long.toString(metered == null ? 0 : metered.reads() - reads),
                Long.toString(metered == null ? 0 : metered.writes() - writes),
                Long.toString(metered == null ? 0 : metered.conditionFailures() - failures),
                Long.toString(System.currentTimeMillis() - spawnedAt),
                Long.toString(metered == null ? 0 : metered.transactions() - transactions),
                Long.toString(decode[0]),
                Long.toString(cpuMicros), Long.toString(LAST_GC[0]), Long.toString(LAST_ALLOC[0]));
    }

    private static final long[] LAST_GC = new long[1];
    private static final long[] LAST_ALLOC = new long[1];

    /**
     * Times {@code call} as the handler call: wall and CPU time into {@code out[1]} and {@code out[2]} (µs), the
     * collectors' time and the kilobytes allocated into {@link #LAST_GC} and {@link #LAST_ALLOC}.
     */
    private static <T> T timed(java.util.concurrent.Callable<T> call, long[] out) throws IOException {
        long allocatedBefore = allocated();
        long gcBefore = gcMillis();
        long cpuBefore = THREADS.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        T result;
        try {
            result = call.call();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        out[1] = (System.nanoTime() - start) / 1000;
        out[2] = (THREADS.getCurrentThreadCpuTime() - cpuBefore) / 1000;
        LAST_GC[0] = (gcMillis() - gcBefore) * 1000;
        LAST_ALLOC[0] = (allocated() - allocatedBefore) / 1024;
        return result;
    }

    /** How many records the event holds: the number of {@code "eventID"} keys (the files are the benchmark's own, one per record). */
    private static int records(byte[] json) {
        byte[] key = "\"eventID\"".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        int count = 0;
        outer:
        for (int k = 0; k <= json.length - key.length; k++) {
            for (int j = 0; j < key.length; j++) {
                if (json[k + j] != key[j]) {
                    continue outer;
                }
            }
            count++;
        }
        return count;
    }

    /** Bytes the calling thread allocated so far (-1 where the JVM cannot say). */
    private static long allocated() {
        return THREADS instanceof com.sun.management.ThreadMXBean t ? t.getCurrentThreadAllocatedBytes() : -1;
    }

    /** Milliseconds the collectors have spent so far (all of them: pauses and, for concurrent ones, their cycles). */
    private static long gcMillis() {
        long sum = 0;
        for (java.lang.management.GarbageCollectorMXBean gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            sum += Math.max(0, gc.getCollectionTime());
        }
        return sum;
    }

    public static void main(String[] args) throws IOException {
        long spawnedAt = Long.parseLong(System.getenv("BENCH_SPAWNED_AT"));
        List<String> lines = new ArrayList<>();
        lines.add("main\t" + (System.currentTimeMillis() - spawnedAt));
        if (args.length != 3 || !(args[0].equals("plain") || args[0].equals("metered"))) {
            System.err.println("usage: HandlerDriver plain|metered <batch dir> <output file>");
            System.exit(2);
        }
        Path dir = Path.of(args[args.length - 2]);
        Path output = Path.of(args[args.length - 1]);
        CallMeter metered = null;
        Indexer indexer = null;
        LambdaSettings settings = LambdaSettings.from(System::getenv);
        if (args[0].equals("metered")) {
            // what the handlers' LambdaSettings constructor builds (EMF metrics on stdout, the store table checked), its store
            // clients telling a meter of every call
            metered = new CallMeter();
            indexer = Indexer.start(DynamoClients.dynamoDb(settings.dynamo()),
                    settings.config().toBuilder().metrics(new EmfMetrics()).meter(metered).build());
        }
        IndexerStreamHandler handler = indexer == null ? new IndexerStreamHandler()
                : new IndexerStreamHandler(indexer, settings.storeTable(), settings.batchSize());
        lines.add("loaded\t" + (System.currentTimeMillis() - spawnedAt));
        Call call = (bytes, times) -> {
            ByteArrayOutputStream response = new ByteArrayOutputStream();
            timed(() -> {
                handler.handleRequest(new ByteArrayInputStream(bytes), response, null);
                return null;
            }, times);
            String json = response.toString(java.nio.charset.StandardCharsets.UTF_8);
            return json.equals("{\"batchItemFailures\":[]}") ? null : json;
        };
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().matches("batch-.*\\.json")).sorted().toList();
        }
        int n = 0;
        for (Path file : files) {
            // one event per call: as in the Lambda runtime, the previous event is garbage before the next is read
            lines.add(handle(++n, file, call, metered, spawnedAt));
        }
        Files.write(output, lines);
    }
}
