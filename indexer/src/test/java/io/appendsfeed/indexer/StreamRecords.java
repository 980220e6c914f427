package io.appendsfeed.indexer;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** Test support: every Streams record of a table so far, shard by shard (parents first), as DynamoDB Local holds them. */
public final class StreamRecords {

    private StreamRecords() {}

    public static List<Record> all(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String table) {
        String arn = dynamo.describeTable(b -> b.tableName(table)).table().latestStreamArn();
        List<Record> out = new ArrayList<>();
        for (Shard shard : streams.describeStream(b -> b.streamArn(arn)).streamDescription().shards()) {
            String it = streams.getShardIterator(b -> b.streamArn(arn).shardId(shard.shardId())
                    .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
            while (it != null) {
                String current = it;
                GetRecordsResponse r = streams.getRecords(b -> b.shardIterator(current).limit(1000));
                out.addAll(r.records());
                // an open shard keeps handing out iterators: stop at its end for now
                it = r.records().isEmpty() ? null : r.nextShardIterator();
            }
        }
        return out;
    }
}
