package io.appendsfeed.samples.bench.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamResponse;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Reads a table's whole DynamoDB stream with {@code GetRecords} at a given limit: every shard from
 * {@code TRIM_HORIZON}, parents before children, until a closed shard ends or a read of an open shard
 * comes back empty. Call it only once the writes are done; DynamoDB Local makes records readable within
 * milliseconds.
 */
public final class StreamsScan {

    /** Told a stream's records shard by shard: pages of one shard, then its end, then the next shard. */
    @FunctionalInterface
    public interface ShardSink {
        void records(String shardId, List<Record> page);

        default void endShard(String shardId) {
        }
    }

    /** What {@link #shards} read: the stream's ARN, its shards, records and {@code GetRecords} calls. */
    public record Summary(String streamArn, int shards, long records, long getRecordsCalls) {}

    private StreamsScan() {
    }

    /**
     * Reads every record of the table's stream, shard by shard (parents first), with {@code GetRecords}
     * at {@code limit}, handing them to {@code sink} as they come (so that a large stream is never
     * held whole).
     *
     * @throws IllegalArgumentException when the table has no stream
     */
    public static Summary shards(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String table, int limit, ShardSink sink) {
        String arn = streamArn(dynamo, table);
        List<Shard> shards = lineageOrder(streams, arn);
        long[] records = {0};
        long calls = 0;
        for (Shard shard : shards) {
            calls += readShard(streams, arn, shard, limit, page -> {
                records[0] += page.size();
                sink.records(shard.shardId(), page);
            });
            sink.endShard(shard.shardId());
        }
        return new Summary(arn, shards.size(), records[0], calls);
    }

    /** @throws IllegalArgumentException when the table has no stream */
    public static String streamArn(DynamoDbClient dynamo, String table) {
        String arn = dynamo.describeTable(b -> b.tableName(table)).table().latestStreamArn();
        if (arn == null) {
            throw new IllegalArgumentException("table " + table + " has no stream; enable Streams (NEW_IMAGE)");
        }
        return arn;
    }

    /** From {@code TRIM_HORIZON} until the shard ends (a closed shard) or a read comes back empty (an open one). */
    private static long readShard(DynamoDbStreamsClient streams, String arn, Shard shard, int limit, Consumer<List<Record>> onBatch) {
        boolean closed = shard.sequenceNumberRange() != null && shard.sequenceNumberRange().endingSequenceNumber() != null;
        long calls = 0;
        String iterator = streams.getShardIterator(b -> b.streamArn(arn).shardId(shard.shardId())
                .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
        while (iterator != null) {
            String it = iterator;
            GetRecordsResponse r = streams.getRecords(b -> b.shardIterator(it).limit(limit));
            calls++;
            if (r.records().isEmpty() && !closed) {
                break;
            }
            if (!r.records().isEmpty()) {
                onBatch.accept(r.records());
            }
            iterator = r.nextShardIterator();
        }
        return calls;
    }

    private static List<Shard> lineageOrder(DynamoDbStreamsClient streams, String arn) {
        Map<String, Shard> all = new LinkedHashMap<>();
        String start = null;
        do {
            String from = start;
            DescribeStreamResponse d = streams.describeStream(b -> b.streamArn(arn).exclusiveStartShardId(from));
            d.streamDescription().shards().forEach(s -> all.put(s.shardId(), s));
            start = d.streamDescription().lastEvaluatedShardId();
        } while (start != null);
        List<Shard> ordered = new ArrayList<>();
        Set<String> placed = new HashSet<>();
        while (ordered.size() < all.size()) {
            int before = ordered.size();
            for (Shard s : all.values()) {
                boolean parentDone = s.parentShardId() == null || !all.containsKey(s.parentShardId())
                        || placed.contains(s.parentShardId());
                if (!placed.contains(s.shardId()) && parentDone) {
                    ordered.add(s);
                    placed.add(s.shardId());
                }
            }
            if (ordered.size() == before) {
                throw new IllegalStateException("shard lineage of " + arn + " has a cycle: " + all.keySet());
            }
        }
        return ordered;
    }
}
