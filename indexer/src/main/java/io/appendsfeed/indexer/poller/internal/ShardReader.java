package io.appendsfeed.indexer.poller.internal;

import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.model.store.StoreTables.WrongTableShapeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamResponse;
import software.amazon.awssdk.services.dynamodb.model.ExpiredIteratorException;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.TrimmedDataAccessException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** The Streams API calls of the poller: shard listing and reads, with iterators kept between reads. */
public final class ShardReader {

    /** Records of one read; {@code drained} when the shard is closed and nothing follows them. */
    public record Batch(List<ChangeRecord> records, boolean drained) {}

    private final DynamoDbStreamsClient streams;
    private final int recordsPerRead;
    private final String streamArn;
    private final Map<String, String> iterators = new HashMap<>();

    /**
     * @throws WrongTableShapeException when the store table does not exist
     * @throws IllegalArgumentException when it has no stream
     */
    public ShardReader(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String storeTable, int recordsPerRead) {
        this.streams = streams;
        this.recordsPerRead = recordsPerRead;
        try {
            this.streamArn = dynamo.describeTable(b -> b.tableName(storeTable)).table().latestStreamArn();
        } catch (ResourceNotFoundException e) {
            throw WrongTableShapeException.missing(storeTable, e);
        }
        if (streamArn == null) {
            throw new IllegalArgumentException("table '" + storeTable + "' has no stream: enable DynamoDB Streams"
                    + " on it with NEW_IMAGE or NEW_AND_OLD_IMAGES");
        }
    }

    /** Every shard of the stream, parents listed before their children. */
    public List<Shard> shards() {
        List<Shard> shards = new ArrayList<>();
        String last = null;
        do {
            String from = last;
            DescribeStreamResponse r = streams.describeStream(b -> b.streamArn(streamArn).exclusiveStartShardId(from));
            shards.addAll(r.streamDescription().shards());
            last = r.streamDescription().lastEvaluatedShardId();
        } while (last != null);
        return shards;
    }

    /** The next records of a shard after {@code after} (null: from the oldest kept). */
    public Batch read(String shardId, String after) {
        GetRecordsResponse r;
        try {
            r = getRecords(iterators.computeIfAbsent(shardId, id -> iterator(id, after)));
        } catch (ExpiredIteratorException | TrimmedDataAccessException e) {
            // A kept iterator expires (15 min), and DynamoDB Local reports one taken at TRIM_HORIZON of an empty shard
            // trimmed once records arrive: start again from the saved position (past the trim horizon, this throws again)
            r = getRecords(iterator(shardId, after));
        }
        if (r.nextShardIterator() == null) {
            iterators.remove(shardId);
        } else {
            iterators.put(shardId, r.nextShardIterator());
        }
        return new Batch(r.records().stream().map(ChangeRecord::from).toList(), r.nextShardIterator() == null);
    }

    /** Forgets the shard's iterator: the next read starts again after the position it is given. */
    public void rewind(String shardId) {
        iterators.remove(shardId);
    }

    /** Forgets every iterator. */
    public void rewindAll() {
        iterators.clear();
    }

    private GetRecordsResponse getRecords(String iterator) {
        return streams.getRecords(b -> b.shardIterator(iterator).limit(recordsPerRead));
    }

    private String iterator(String shardId, String after) {
        return streams.getShardIterator(b -> b.streamArn(streamArn).shardId(shardId)
                .shardIteratorType(after == null ? ShardIteratorType.TRIM_HORIZON : ShardIteratorType.AFTER_SEQUENCE_NUMBER)
                .sequenceNumber(after)).shardIterator();
    }
}
