package io.appendsfeed.samples.bench.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.lambda.IndexerStreamHandler;
import io.appendsfeed.indexer.lambda.LambdaSettings;
import io.appendsfeed.model.DynamoClients;
import io.appendsfeed.model.metrics.EmfMetrics;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Runs in a fresh JVM whose class path is the shaded Lambda jar and the benchmark's classes (of which
 * it loads only this class, {@link Meter} and {@link HandlerRun}), and does what the Lambda Java runtime does with the
 * template's handler, {@link IndexerStreamHandler}: builds it with settings from the environment and
 * hands it each event's bytes, one {@code batch-*.json} at a time in name order. It writes a
 * {@link HandlerRun}, as the equinox-js driver ({@code lambda-batches.mjs}) does; decoding is inside
 * the handler's time here (the handler reads the bytes itself), so its decode time is 0.
 *
 * <p>Usage: {@code HandlerDriver plain|metered <batch dir> <output file>}. {@code plain}: the
 * no-argument constructor Lambda calls. {@code metered}: the same handler built from the same settings
 * (EMF metrics, the store table checked), with a {@link Meter} told of every call by the indexer's
 * store clients. Environment: the handler's ({@code APPENDS_INDEX_TABLE}, {@code APPENDS_STORE_TABLE},
 * {@code APPENDS_DYNAMODB_ENDPOINT}, {@code AWS_REGION}) and {@code BENCH_SPAWNED_AT}, epoch ms when the
 * parent spawned the process. Exit 3 when a batch reports a failure (every batch must go in whole).
 */
public final class HandlerDriver {

    private HandlerDriver() {
    }

    public static void main(String[] args) throws IOException {
        long spawnedAt = Long.parseLong(System.getenv("BENCH_SPAWNED_AT"));
        long mainMs = System.currentTimeMillis() - spawnedAt;
        if (args.length != 3 || !(args[0].equals("plain") || args[0].equals("metered"))) {
            System.err.println("usage: HandlerDriver plain|metered <batch dir> <output file>");
            System.exit(2);
        }
        Meter meter = new Meter();
        IndexerStreamHandler handler;
        if (args[0].equals("metered")) {
            LambdaSettings settings = LambdaSettings.from(System::getenv);
            handler = new IndexerStreamHandler(Indexer.start(DynamoClients.dynamoDb(settings.dynamo()),
                    settings.config().toBuilder().metrics(new EmfMetrics()).meter(meter).build()), settings.storeTable());
        } else {
            handler = new IndexerStreamHandler();
        }
        long loadedMs = System.currentTimeMillis() - spawnedAt;
        List<Path> files;
        try (Stream<Path> s = Files.list(Path.of(args[1]))) {
            files = s.filter(p -> p.getFileName().toString().matches("batch-.*\\.json")).sorted().toList();
        }
        List<HandlerRun.Batch> batches = new ArrayList<>();
        for (Path file : files) {
            // one event at a time: as in the Lambda runtime, the previous one is garbage before the next is read
            byte[] event = Files.readAllBytes(file);
            double rcu = meter.readUnits();
            double wcu = meter.writeUnits();
            long reads = meter.reads();
            long writes = meter.writes();
            long refused = meter.refused();
            long transactions = meter.transactions();
            ByteArrayOutputStream response = new ByteArrayOutputStream();
            long start = System.nanoTime();
            handler.handleRequest(new ByteArrayInputStream(event), response, null);
            long micros = (System.nanoTime() - start) / 1000;
            if (!response.toString(StandardCharsets.UTF_8).equals("{\"batchItemFailures\":[]}")) {
                System.err.println(file + ": the handler reported a batch item failure: " + response.toString(StandardCharsets.UTF_8));
                System.exit(3);
            }
            batches.add(new HandlerRun.Batch(batches.size() + 1, records(event), micros, meter.readUnits() - rcu,
                    meter.writeUnits() - wcu, meter.reads() - reads, meter.writes() - writes, meter.refused() - refused,
                    System.currentTimeMillis() - spawnedAt, meter.transactions() - transactions, 0));
        }
        new ObjectMapper().writeValue(Path.of(args[2]).toFile(), new HandlerRun(mainMs, loadedMs, batches));
    }

    /** The records of an event: its {@code "eventID"} keys (the files are ours, one key per record). */
    private static int records(byte[] json) {
        String text = new String(json, StandardCharsets.UTF_8);
        int count = 0;
        for (int at = text.indexOf("\"eventID\""); at >= 0; at = text.indexOf("\"eventID\"", at + 1)) {
            count++;
        }
        return count;
    }
}
