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
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * What the Lambda Java runtime does with {@link IndexerStreamHandler}, in a fresh JVM: each {@code batch-*.json}'s bytes
 * in name order; writes a {@link Run}, as {@code lambda-batches.mjs} does. Exit 3 when a batch is not ingested whole.
 */
public final class HandlerDriver {

    /** What one handler process reported; {@code mainMs} from the spawn to main, {@code loadedMs} to the handler ready. */
    public record Run(long mainMs, long loadedMs, List<Batch> batches) {

        /**
         * @param micros the handler call's time (ours reads the event's bytes in it); {@code doneMs} from the spawn to its end
         * @param decodeMicros the runtime's decoding of the event before the call (node's {@code JSON.parse}); 0 for ours
         */
        public record Batch(int n, int records, long micros, double readUnits, double writeUnits, long reads, long writes,
                            long refused, long doneMs, long transactions, long decodeMicros) {

            /** What the function is billed for: the event decoded, then the handler. */
            public long invocationMicros() {
                return micros + decodeMicros;
            }
        }
    }

    private static final byte[] SCHEDULED = ("{\"version\":\"0\",\"detail-type\":\"Scheduled Event\",\"source\":\"aws.events\","
            + "\"time\":\"2026-01-01T00:00:00Z\",\"resources\":[],\"detail\":{}}").getBytes(StandardCharsets.UTF_8);

    private static final byte[] EVENT_ID = "\"eventID\"".getBytes(StandardCharsets.UTF_8);

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
                    settings.config().toBuilder().metrics(new EmfMetrics()).meter(meter).build()), settings.storeTable(),
                    settings.batchSize());
        } else {
            handler = new IndexerStreamHandler();
        }
        long loadedMs = System.currentTimeMillis() - spawnedAt;
        List<Path> files;
        try (Stream<Path> s = Files.list(Path.of(args[1]))) {
            files = s.filter(p -> p.getFileName().toString().matches("batch-.*\\.json")).sorted().toList();
        }
        List<Run.Batch> batches = new ArrayList<>();
        for (Path file : files) {
            // one event at a time: as in the Lambda runtime, the previous one is garbage before the next is read
            byte[] event = Files.readAllBytes(file);
            meter.take(); // what the last batch's check, or the handler's construction, counted
            ByteArrayOutputStream response = new ByteArrayOutputStream();
            long start = System.nanoTime();
            handler.handleRequest(new ByteArrayInputStream(event), response, null);
            long micros = (System.nanoTime() - start) / 1000;
            if (!response.toString(StandardCharsets.UTF_8).equals("{\"batchItemFailures\":[]}")) {
                System.err.println(file + ": the handler reported a batch item failure: " + response.toString(StandardCharsets.UTF_8));
                System.exit(3);
            }
            int records = records(event);
            Meter.Totals t = meter.take();
            batches.add(new Run.Batch(batches.size() + 1, records, micros, t.readUnits(), t.writeUnits(), t.reads(), t.writes(),
                    t.refused(), System.currentTimeMillis() - spawnedAt, t.transactions(), 0));
        }
        // then the template's schedule, as once the stream went quiet: Tips a full last batch left behind move
        ByteArrayOutputStream response = new ByteArrayOutputStream();
        handler.handleRequest(new ByteArrayInputStream(SCHEDULED), response, null);
        new ObjectMapper().writeValue(Path.of(args[2]).toFile(), new Run(mainMs, loadedMs, batches));
    }

    /** The files are ours: one {@code "eventID"} key per record. Counted in place: no garbage for the handler's next call. */
    private static int records(byte[] event) {
        int n = 0;
        for (int at = 0; at + EVENT_ID.length <= event.length; at++) {
            if (event[at] == '"' && Arrays.equals(event, at, at + EVENT_ID.length, EVENT_ID, 0, EVENT_ID.length)) {
                n++;
            }
        }
        return n;
    }
}
