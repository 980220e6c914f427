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
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.stream.Stream;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * A store's stream as Lambda delivers it: batches of at most K records, never across shards, each written as the
 * {@code DynamodbEvent} JSON Lambda hands a function, in files {@code batch-000001.json} on (name order is delivery order).
 */
public final class LambdaEventFiles {

    public record Written(int batchSize, Path dir, int batches, long records, int shards) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    private LambdaEventFiles() {
    }

    /** Cuts the table's stream into batches of {@code k} (1..10,000, Lambda's range) in {@code dir}, replacing earlier ones. */
    public static Written write(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String table, int k, Path dir) {
        if (k < 1 || k > 10_000) {
            throw new IllegalArgumentException("a Lambda batch holds 1..10,000 records, got " + k);
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
        String arn = streamArn(dynamo, table);
        List<Record> batch = new ArrayList<>();
        int[] batches = {0};
        long[] records = {0};
        Runnable flush = () -> {
            if (!batch.isEmpty()) {
                records[0] += batch.size();
                Path file = dir.resolve(String.format("batch-%06d.json", ++batches[0]));
                try {
                    JSON.writeValue(file.toFile(), event(batch, arn));
                } catch (IOException e) {
                    throw new UncheckedIOException("could not write the Lambda event " + file + ": " + e.getMessage(), e);
                }
                batch.clear();
            }
        };
        int shards = scan(dynamo, streams, table, (shard, page) -> page.forEach(r -> {
            batch.add(r);
            if (batch.size() == k) {
                flush.run();
            }
        }), shard -> flush.run());
        return new Written(k, dir, batches[0], records[0], shards);
    }

    /**
     * Reads a table's whole stream once its writes are done, parents before children, each shard to its end (or, if
     * open, to an empty read), handing every page to {@code pages} and then the shard to {@code shardEnd}.
     *
     * @return the shards read
     */
    public static int scan(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String table,
                           BiConsumer<String, List<Record>> pages, Consumer<String> shardEnd) {
        String arn = streamArn(dynamo, table);
        // one page of shards: DynamoDB Local keeps one open shard, rolling over every 4 hours. A shard's id begins with its
        // creation time, so that in id order a parent comes before its children
        List<Shard> ordered = streams.describeStream(b -> b.streamArn(arn)).streamDescription().shards().stream()
                .sorted(Comparator.comparing(Shard::shardId)).toList();
        for (Shard shard : ordered) {
            boolean closed = shard.sequenceNumberRange() != null && shard.sequenceNumberRange().endingSequenceNumber() != null;
            String iterator = streams.getShardIterator(b -> b.streamArn(arn).shardId(shard.shardId())
                    .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
            while (iterator != null) {
                String it = iterator;
                GetRecordsResponse r = streams.getRecords(b -> b.shardIterator(it).limit(1000));
                if (r.records().isEmpty() && !closed) {
                    break;
                }
                if (!r.records().isEmpty()) {
                    pages.accept(shard.shardId(), r.records());
                }
                iterator = r.nextShardIterator();
            }
            shardEnd.accept(shard.shardId());
        }
        return ordered.size();
    }

    /** @throws IllegalArgumentException when the table has no stream */
    public static String streamArn(DynamoDbClient dynamo, String table) {
        String arn = dynamo.describeTable(b -> b.tableName(table)).table().latestStreamArn();
        if (arn == null) {
            throw new IllegalArgumentException("table " + table + " has no stream; enable Streams (NEW_IMAGE)");
        }
        return arn;
    }

    /** The Lambda event of these records. */
    public static ObjectNode event(List<Record> records, String streamArn) {
        ObjectNode event = JSON.createObjectNode();
        ArrayNode out = event.putArray("Records");
        for (Record r : records) {
            ObjectNode rec = out.addObject().put("eventID", r.eventID()).put("eventName", r.eventNameAsString())
                    .put("eventVersion", r.eventVersion()).put("eventSource", r.eventSource() != null ? r.eventSource() : "aws:dynamodb")
                    .put("awsRegion", r.awsRegion());
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
            dyn.put("SequenceNumber", d.sequenceNumber()).put("SizeBytes", d.sizeBytes()).put("StreamViewType", d.streamViewTypeAsString());
            rec.put("eventSourceARN", streamArn);
        }
        return event;
    }

    private static ObjectNode map(Map<String, AttributeValue> m) {
        ObjectNode out = JSON.createObjectNode();
        m.forEach((k, v) -> out.set(k, value(v)));
        return out;
    }

    private static JsonNode value(AttributeValue v) {
        ObjectNode out = JSON.createObjectNode();
        Base64.Encoder b64 = Base64.getEncoder();
        switch (v.type()) {
            case S -> out.put("S", v.s());
            case N -> out.put("N", v.n());
            case B -> out.put("B", b64.encodeToString(v.b().asByteArray()));
            case BOOL -> out.put("BOOL", v.bool());
            case NUL -> out.put("NULL", true);
            case M -> out.set("M", map(v.m()));
            case L -> v.l().stream().map(LambdaEventFiles::value).forEach(out.putArray("L")::add);
            case SS -> v.ss().forEach(out.putArray("SS")::add);
            case NS -> v.ns().forEach(out.putArray("NS")::add);
            case BS -> v.bs().stream().map(b -> b64.encodeToString(b.asByteArray())).forEach(out.putArray("BS")::add);
            default -> throw new IllegalArgumentException("unexpected attribute value type " + v.type() + " in a stream record");
        }
        return out;
    }
}
