package io.appendsfeed.samples.bench.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Reads a table's whole DynamoDB stream once its writes are done: every shard from
 * {@code TRIM_HORIZON}, parents before children, {@code GetRecords} at a given limit, until a closed
 * shard ends or a read of an open shard comes back empty (DynamoDB Local makes records readable within
 * milliseconds).
 */
public final class StreamsScan {

    /** Told a stream's records shard by shard: pages of one shard, then its end, then the next shard. */
    @FunctionalInterface
    public interface ShardSink {
        void records(String shardId, List<Record> page);

        default void endShard(String shardId) {
        }
    }

    /** What {@link #shards} read. */
    public record Summary(String streamArn, int shards, long records) {}

    private StreamsScan() {
    }

    /**
     * Hands every record to {@code sink} as it is read, so that a large stream is never held whole.
     *
     * @throws IllegalArgumentException when the table has no stream
     */
    public static Summary shards(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String table, int limit, ShardSink sink) {
        String arn = streamArn(dynamo, table);
        // one page of shards: DynamoDB Local keeps one open shard, rolling over every 4 hours
        Map<String, Shard> all = streams.describeStream(b -> b.streamArn(arn)).streamDescription().shards().stream()
                .collect(Collectors.toMap(Shard::shardId, Function.identity()));
        List<Shard> ordered = new ArrayList<>();
        while (ordered.size() < all.size()) {
            int before = ordered.size();
            all.values().stream().filter(s -> !ordered.contains(s)
                    && (s.parentShardId() == null || !all.containsKey(s.parentShardId()) || ordered.contains(all.get(s.parentShardId()))))
                    .sorted(java.util.Comparator.comparing(Shard::shardId)).forEach(ordered::add);
            if (ordered.size() == before) {
                throw new IllegalStateException("shard lineage of " + arn + " has a cycle: " + all.keySet());
            }
        }
        long records = 0;
        for (Shard shard : ordered) {
            boolean closed = shard.sequenceNumberRange() != null && shard.sequenceNumberRange().endingSequenceNumber() != null;
            String iterator = streams.getShardIterator(b -> b.streamArn(arn).shardId(shard.shardId())
                    .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
            while (iterator != null) {
                String it = iterator;
                GetRecordsResponse r = streams.getRecords(b -> b.shardIterator(it).limit(limit));
                if (r.records().isEmpty() && !closed) {
                    break;
                }
                if (!r.records().isEmpty()) {
                    records += r.records().size();
                    sink.records(shard.shardId(), r.records());
                }
                iterator = r.nextShardIterator();
            }
            sink.endShard(shard.shardId());
        }
        return new Summary(arn, ordered.size(), records);
    }

    /** @throws IllegalArgumentException when the table has no stream */
    public static String streamArn(DynamoDbClient dynamo, String table) {
        String arn = dynamo.describeTable(b -> b.tableName(table)).table().latestStreamArn();
        if (arn == null) {
            throw new IllegalArgumentException("table " + table + " has no stream; enable Streams (NEW_IMAGE)");
        }
        return arn;
    }
}
