package io.appendsfeed.samples.bench.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * Cuts a stream's records into Lambda batches of at most K records, never across shards (as Lambda's
 * event source mapping does), and writes each as the JSON Lambda hands a function subscribed to a
 * DynamoDB stream ({@code DynamodbEvent}): capitalised attribute-value keys, binary values as base64,
 * {@code ApproximateCreationDateTime} in epoch seconds, {@code eventSourceARN} the stream's ARN.
 * Several batch sizes are cut in one pass, each into its own directory; files are
 * {@code batch-000001.json} on, so that name order is delivery order.
 */
public final class LambdaEventFiles implements StreamsScan.ShardSink {

    /** What was written for one batch size. */
    public record Written(int batchSize, Path dir, int batches, long records) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String streamArn;
    private final List<Cutter> cutters = new ArrayList<>();

    /**
     * @param dirs batch size → the directory its files go to (created; batch files an earlier run left
     *             there are deleted, so that a handler never gets another run's batch)
     * @throws IllegalArgumentException when a batch size is not 1..10,000 (Lambda's range for a stream)
     */
    public LambdaEventFiles(String streamArn, Map<Integer, Path> dirs) {
        this.streamArn = streamArn;
        dirs.forEach((size, dir) -> {
            if (size < 1 || size > 10_000) {
                throw new IllegalArgumentException("a Lambda batch holds 1..10,000 records, got " + size);
            }
            try {
                Files.createDirectories(dir);
                try (Stream<Path> old = Files.list(dir)) {
                    for (Path f : old.filter(f -> f.getFileName().toString().matches("batch-.*\\.json")).toList()) {
                        Files.delete(f);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("could not create or clear " + dir + ": " + e.getMessage(), e);
            }
            cutters.add(new Cutter(size, dir));
        });
    }

    @Override
    public void records(String shardId, List<Record> page) {
        for (Cutter c : cutters) {
            for (Record r : page) {
                c.buffer.add(r);
                if (c.buffer.size() == c.size) {
                    c.flush();
                }
            }
        }
    }

    @Override
    public void endShard(String shardId) {
        cutters.forEach(Cutter::flush);
    }

    /** Call after the last shard. */
    public List<Written> written() {
        return cutters.stream().map(c -> new Written(c.size, c.dir, c.batches, c.records)).toList();
    }

    private final class Cutter {
        final int size;
        final Path dir;
        final List<Record> buffer = new ArrayList<>();
        int batches;
        long records;

        Cutter(int size, Path dir) {
            this.size = size;
            this.dir = dir;
        }

        void flush() {
            if (buffer.isEmpty()) {
                return;
            }
            batches++;
            records += buffer.size();
            Path file = dir.resolve(String.format("batch-%06d.json", batches));
            try {
                JSON.writeValue(file.toFile(), event(buffer, streamArn));
            } catch (IOException e) {
                throw new UncheckedIOException("could not write the Lambda event " + file + ": " + e.getMessage(), e);
            }
            buffer.clear();
        }
    }

    /** The Lambda event of these records. */
    public static ObjectNode event(List<Record> records, String streamArn) {
        ObjectNode event = JSON.createObjectNode();
        ArrayNode out = event.putArray("Records");
        for (Record r : records) {
            ObjectNode rec = out.addObject();
            rec.put("eventID", r.eventID());
            rec.put("eventName", r.eventNameAsString());
            rec.put("eventVersion", r.eventVersion());
            rec.put("eventSource", r.eventSource() != null ? r.eventSource() : "aws:dynamodb");
            rec.put("awsRegion", r.awsRegion());
            var d = r.dynamodb();
            ObjectNode dyn = rec.putObject("dynamodb");
            if (d.approximateCreationDateTime() != null) {
                dyn.put("ApproximateCreationDateTime", d.approximateCreationDateTime().getEpochSecond());
            }
            dyn.set("Keys", map(d.keys()));
            if (d.hasNewImage()) {
                dyn.set("NewImage", map(d.newImage()));
            }
            if (d.hasOldImage()) {
                dyn.set("OldImage", map(d.oldImage()));
            }
            dyn.put("SequenceNumber", d.sequenceNumber());
            dyn.put("SizeBytes", d.sizeBytes());
            dyn.put("StreamViewType", d.streamViewTypeAsString());
            rec.put("eventSourceARN", streamArn);
        }
        return event;
    }

    static ObjectNode map(Map<String, AttributeValue> m) {
        ObjectNode out = JSON.createObjectNode();
        m.forEach((k, v) -> out.set(k, value(v)));
        return out;
    }

    static JsonNode value(AttributeValue v) {
        ObjectNode out = JSON.createObjectNode();
        switch (v.type()) {
            case S -> out.put("S", v.s());
            case N -> out.put("N", v.n());
            case B -> out.put("B", base64(v.b()));
            case BOOL -> out.put("BOOL", v.bool());
            case NUL -> out.put("NULL", true);
            case M -> out.set("M", map(v.m()));
            case L -> {
                ArrayNode l = out.putArray("L");
                v.l().forEach(x -> l.add(value(x)));
            }
            case SS -> v.ss().forEach(out.putArray("SS")::add);
            case NS -> v.ns().forEach(out.putArray("NS")::add);
            case BS -> {
                ArrayNode bs = out.putArray("BS");
                v.bs().forEach(b -> bs.add(base64(b)));
            }
            default -> throw new IllegalArgumentException("unexpected attribute value type " + v.type() + " in a stream record");
        }
        return out;
    }

    private static String base64(SdkBytes b) {
        return Base64.getEncoder().encodeToString(b.asByteArray());
    }
}
