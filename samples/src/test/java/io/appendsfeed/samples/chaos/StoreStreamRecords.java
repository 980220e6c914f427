package io.appendsfeed.samples.chaos;

import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.model.StreamName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** Every DynamoDB Streams record of a store table so far, shards parents first, as the indexer's sources see them. */
final class StoreStreamRecords {

    private StoreStreamRecords() {}

    static List<ChangeRecord> all(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String table) {
        String arn = dynamo.describeTable(b -> b.tableName(table)).table().latestStreamArn();
        List<ChangeRecord> out = new ArrayList<>();
        for (Shard shard : streams.describeStream(b -> b.streamArn(arn)).streamDescription().shards()) {
            String it = streams.getShardIterator(b -> b.streamArn(arn).shardId(shard.shardId())
                    .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
            while (it != null) {
                String current = it;
                GetRecordsResponse r = streams.getRecords(b -> b.shardIterator(current).limit(1000));
                r.records().forEach(x -> out.add(ChangeRecord.from(x)));
                it = r.records().isEmpty() ? null : r.nextShardIterator(); // an open shard never ends: stop at its end for now
            }
        }
        return out;
    }

    /** Whether the records show each stream's Tip at its version in {@code versions} (Streams lags writes by a few ms). */
    static boolean cover(List<ChangeRecord> records, Map<StreamName, Integer> versions) {
        for (Map.Entry<StreamName, Integer> v : versions.entrySet()) {
            boolean seen = v.getValue() == 0 || records.stream().anyMatch(r -> r.newImage() != null
                    && AttributeValue.fromS(v.getKey().value()).equals(r.keys().get("p"))
                    && AttributeValue.fromN(Integer.toString(v.getValue())).equals(r.newImage().get("n"))
                    && "2147483647".equals(r.keys().get("i").n()));
            if (!seen) {
                return false;
            }
        }
        return true;
    }
}
