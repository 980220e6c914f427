package io.appendsfeed.samples.bench.internal.lambda;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.lambda.IndexerHandler;
import io.appendsfeed.indexer.lambda.LambdaSettings;
import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.metrics.EmfMetrics;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Runs in a fresh JVM whose class path is the shaded Lambda jar, the Lambda runtime's event
 * serializer and the benchmark's classes (of which it loads only this class and the metering
 * client): does what the Lambda Java runtime does (constructs {@link IndexerHandler} with settings
 * from the environment, reads each event with the runtime's serializer, calls the handler) over
 * every {@code batch-*.json} of a directory in name order, and writes one line per step in the
 * format of the benchmark's equinox-js driver ({@code lambda-batches.mjs}), so that
 * {@link HandlerProcess} reads both alike, plus two columns of its own at the end of each batch line:
 * the handler thread's CPU time and the collectors' time during the call, in microseconds, and the
 * kilobytes the handler thread allocated (where the handler time went; see BENCHMARKS.md, "Indexer profile").
 *
 * <p>Usage: {@code HandlerDriver plain|metered <batch dir> <output file>}. {@code plain} uses the
 * no-argument constructor Lambda calls; {@code metered} builds the same handler from the same
 * settings the way that constructor does (its metrics, the store table it checks records against), with
 * a {@link CallMeter} as the indexer's capacity meter, so that every call's capacity is summed per batch.
 * Environment: the handler's ({@code APPENDS_INDEX_TABLE}, {@code APPENDS_STORE_TABLE},
 * {@code APPENDS_DYNAMODB_ENDPOINT}, {@code APPENDS_BATCH_SIZE}, {@code AWS_REGION}) and {@code BENCH_SPAWNED_AT}, epoch milliseconds when the parent started the
 * process. Exit 3 when a batch reports a failure (every batch must be ingested whole).
 */
public final class HandlerDriver {

    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    private HandlerDriver() {
    }

    /** Decodes one event file as the runtime does, hands it to the handler, and returns its batch line. */
    private static String handle(int n, Path file, PojoSerializer<DynamodbEvent> serializer,
                                 RequestHandler<DynamodbEvent, StreamsEventResponse> handler, CallMeter metered,
                                 long spawnedAt) throws IOException {
        DynamodbEvent event = serializer.fromJson(new ByteArrayInputStream(Files.readAllBytes(file)));
        double rcu = metered == null ? 0 : metered.tally().readUnits();
        double wcu = metered == null ? 0 : metered.tally().writeUnits();
        long reads = metered == null ? 0 : metered.reads();
        long writes = metered == null ? 0 : metered.writes();
        long failures = metered == null ? 0 : metered.conditionFailures();
        long transactions = metered == null ? 0 : metered.transactions();
        long allocatedBefore = allocated();
        long gcBefore = gcMillis();
        long cpuBefore = THREADS.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        StreamsEventResponse response = handler.handleRequest(event, null);
        long micros = (System.nanoTime() - start) / 1000;
        long cpuMicros = (THREADS.getCurrentThreadCpuTime() - cpuBefore) / 1000;
        long gcMicros = (gcMillis() - gcBefore) * 1000;
        long allocatedKb = (allocated() - allocatedBefore) / 1024;
        if (!response.getBatchItemFailures().isEmpty()) {
            System.err.println(file + ": the handler reported a batch item failure at "
                    + response.getBatchItemFailures().get(0).getItemIdentifier() + " (see the log above)");
            System.exit(3);
        }
        return String.join("\t", "batch", Integer.toString(n), Integer.toString(event.getRecords().size()),
                Long.toString(micros),
                Double.toString(metered == null ? 0 : metered.tally().readUnits() - rcu),
                Double.toString(metered == null ? 0 : metered.tally().writeUnits() - wcu),
                Long.toString(metered == null ? 0 : metered.reads() - reads),
                Long.toString(metered == null ? 0 : metered.writes() - writes),
                Long.toString(metered == null ? 0 : metered.conditionFailures() - failures),
                Long.toString(System.currentTimeMillis() - spawnedAt),
                Long.toString(metered == null ? 0 : metered.transactions() - transactions),
                Long.toString(cpuMicros), Long.toString(gcMicros), Long.toString(allocatedKb));
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
        CallMeter metered = null;
        RequestHandler<DynamodbEvent, StreamsEventResponse> handler;
        if (args[0].equals("plain")) {
            handler = new IndexerHandler();
        } else {
            // what IndexerHandler(LambdaSettings) builds (EMF metrics on stdout, the store table checked), its store
            // clients telling a meter of every call: a metering wrapper around the client would turn off, and not
            // see, the direct PutItem that the handler Lambda runs makes (model README, "The direct PutItem")
            LambdaSettings settings = LambdaSettings.from(System::getenv);
            metered = new CallMeter();
            handler = new IndexerHandler(Indexer.start(DynamoClients.dynamoDb(settings.dynamo()),
                    settings.config().toBuilder().metrics(new EmfMetrics()).meter(metered).build()),
                    settings.storeTable(), settings.batchSize());
        }
        lines.add("loaded\t" + (System.currentTimeMillis() - spawnedAt));
        PojoSerializer<DynamodbEvent> serializer = LambdaEventSerializers.serializerFor(DynamodbEvent.class,
                HandlerDriver.class.getClassLoader());
        List<Path> files;
        try (Stream<Path> s = Files.list(Path.of(args[1]))) {
            files = s.filter(p -> p.getFileName().toString().matches("batch-.*\\.json")).sorted().toList();
        }
        int n = 0;
        for (Path file : files) {
            // one event per call: as in the Lambda runtime, the previous event is garbage before the next is decoded
            lines.add(handle(++n, file, serializer, handler, metered, spawnedAt));
        }
        Files.write(Path.of(args[2]), lines);
    }
}
