package io.appendsfeed.indexer.lambda;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.Indexer;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * Measures reading a Lambda event into records (not asserted: a main, run by hand), for the figures in
 * {@link LambdaEvent}'s comment. Events are batches of equinox-js-like Tips, about 16 KB of JSON a record:
 * 56 events of which the write appended one or two, bodies and metadata as base64, an unfold. Each reader
 * reads the event's bytes and the indexer parses every record, as the handler does before it writes; the
 * time is the reading thread's CPU time (the machine is shared), the median of five runs after a warm-up.
 * Run it with the template's JVM flags too ({@code -XX:TieredStopAtLevel=1 -XX:+UseSerialGC}).
 *
 * <pre>
 * mvn -B -q -pl indexer -am test -Dtest=LambdaEventBench -Dlambda.bench=true -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 * runs it in two fresh JVMs, with the template's flags (C1 only, SerialGC) and with C2.
 */
public final class LambdaEventBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** Opt-in: each run takes a minute or more. Prints the figures; fails only when a run does. */
    @org.junit.jupiter.api.Test
    @org.junit.jupiter.api.condition.EnabledIfSystemProperty(named = "lambda.bench", matches = "true")
    void prints_each_readers_cpu_time_per_batch_with_c1_and_with_c2() throws Exception {
        String launcher = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (List<String> flags : List.of(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"), List.of("-XX:+UseSerialGC"))) {
            List<String> command = new java.util.ArrayList<>(List.of(launcher));
            command.addAll(flags);
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), LambdaEventBench.class.getName(), "60"));
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            System.out.println(String.join(" ", flags) + "\n" + out);
            org.assertj.core.api.Assertions.assertThat(p.waitFor()).as(out).isZero();
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        Map<String, Function<byte[], List<ChangeRecord>>> readers = new LinkedHashMap<>();
        readers.put("LambdaEvent (Jackson JsonParser)", json -> LambdaEvent.read(json).records());
        // what a RequestHandler<DynamodbEvent, ...> costs: the runtime decodes the whole event into its types first
        readers.put("the runtime's DynamodbEvent", json -> RuntimeEvent.expected(RuntimeEvent.decode(json)).records());
        Map<Integer, byte[]> events = new LinkedHashMap<>();
        for (int size : List.of(100, 300)) {
            events.put(size, JSON.writeValueAsBytes(event(new Random(size), size)));
        }
        // warm up every reader on every batch first, so that no reader runs while another is still compiled
        for (var reader : readers.values()) {
            for (byte[] event : events.values()) {
                msPerBatch(reader, event, rounds);
            }
        }
        for (var e : events.entrySet()) {
            System.out.printf("batch of %d records: %,d bytes (%,d a record)%n", e.getKey(), e.getValue().length, e.getValue().length / e.getKey());
            for (var reader : readers.entrySet()) {
                System.out.printf("  %-36s %6.2f ms a batch%n", reader.getKey(), msPerBatch(reader.getValue(), e.getValue(), rounds));
            }
        }
    }

    /** CPU time, not wall time: the machine's two cores are shared with other work. */
    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    /** The median of five runs of {@code rounds} batches each (the reading thread's CPU time), after as many to warm up. */
    private static double msPerBatch(Function<byte[], List<ChangeRecord>> reader, byte[] event, int rounds) {
        long sink = 0;
        for (int k = 0; k < rounds; k++) {
            sink += parseAll(reader.apply(event));
        }
        double[] runs = new double[5];
        for (int run = 0; run < runs.length; run++) {
            long start = THREADS.getCurrentThreadCpuTime();
            for (int k = 0; k < rounds; k++) {
                sink += parseAll(reader.apply(event));
            }
            runs[run] = (THREADS.getCurrentThreadCpuTime() - start) / 1e6 / rounds;
        }
        if (sink == 42) {
            System.out.println();
        }
        java.util.Arrays.sort(runs);
        return runs[runs.length / 2];
    }

    private static int parseAll(List<ChangeRecord> records) {
        int spans = 0;
        for (ChangeRecord r : records) {
            if (Indexer.parse(r) instanceof Indexer.Parsed.Spanned) {
                spans++;
            }
        }
        if (spans != records.size()) {
            throw new AssertionError("every record is a Tip that appended events: " + spans + " of " + records.size());
        }
        return spans;
    }

    /** A batch of Tip writes, one stream each, as Lambda writes the event. */
    static ObjectNode event(Random rnd, int size) {
        ObjectNode event = NODES.objectNode();
        ArrayNode records = event.putArray("Records");
        for (int k = 0; k < size; k++) {
            records.add(record(rnd, k));
        }
        return event;
    }

    private static ObjectNode record(Random rnd, int k) {
        String stream = "Cart-" + Long.toHexString(rnd.nextLong());
        int events = 56;
        int appended = 1 + rnd.nextInt(2);
        ObjectNode r = NODES.objectNode();
        r.put("eventID", Long.toHexString(rnd.nextLong())).put("eventName", "MODIFY").put("eventVersion", "1.1")
                .put("eventSource", "aws:dynamodb").put("awsRegion", "eu-west-1");
        ObjectNode d = r.putObject("dynamodb");
        d.put("ApproximateCreationDateTime", 1732350000L + k);
        ObjectNode keys = d.putObject("Keys");
        keys.putObject("p").put("S", stream);
        keys.putObject("i").put("N", "2147483647");
        ObjectNode image = d.putObject("NewImage");
        image.putObject("p").put("S", stream);
        image.putObject("i").put("N", "2147483647");
        image.putObject("etag").put("S", Long.toHexString(rnd.nextLong()));
        image.putObject("b").put("N", "0");
        image.putObject("n").put("N", Integer.toString(events));
        image.putObject("a").put("N", Integer.toString(appended));
        ArrayNode c = image.putObject("c").putArray("L");
        ArrayNode e = image.putObject("e").putArray("L");
        for (int j = 0; j < events; j++) {
            String type = j % 3 == 0 ? "ItemAdded" : j % 3 == 1 ? "ItemRemoved" : "QuantityChanged";
            c.addObject().put("S", type);
            ObjectNode m = e.addObject().putObject("M");
            m.putObject("t").put("S", "2024-11-23T08:" + String.format("%02d:%02d", j / 60 % 60, j % 60) + ".123Z");
            m.putObject("d").put("B", base64(rnd, 64));
            m.putObject("D").put("N", "0");
            m.putObject("m").put("B", base64(rnd, 20));
            m.putObject("M").put("N", "0");
            m.putObject("x").put("S", Long.toHexString(rnd.nextLong()));
        }
        ObjectNode unfold = image.putObject("u").putArray("L").addObject().putObject("M");
        unfold.putObject("t").put("S", "2024-11-23T08:00:00.000Z");
        unfold.putObject("c").put("S", "Snapshotted");
        unfold.putObject("d").put("B", base64(rnd, 400));
        unfold.putObject("D").put("N", "0");
        d.put("SequenceNumber", Long.toString(400000000000000000L + k) + "000");
        d.put("SizeBytes", 12_000);
        d.put("StreamViewType", "NEW_IMAGE");
        r.put("eventSourceARN", "arn:aws:dynamodb:eu-west-1:123456789012:table/store/stream/2024-11-23T08:00:00.000");
        return r;
    }

    private static String base64(Random rnd, int bytes) {
        byte[] b = new byte[bytes];
        rnd.nextBytes(b);
        return Base64.getEncoder().encodeToString(b);
    }
}
