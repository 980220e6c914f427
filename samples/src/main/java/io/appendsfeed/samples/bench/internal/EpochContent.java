package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.feed.EpochEvent;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.PartitionId;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * What partition 0's epochs of an index hold, read back raw after a run: the {@code Ingested}
 * events written, their bodies' bytes as stored (the store client deflates bodies when that saves
 * bytes, and JSON spans deflate well) and the write floor those imply: 1 WCU per started KB of each
 * body, the least any write carrying it can cost.
 *
 * @param storedBytes {@code Ingested} body bytes as stored ({@code d}, after compression)
 */
public record EpochContent(int epochs, long ingestedWrites, long storedBytes, long floorWriteUnits) {

    /** Reads epochs 0.. of partition 0 until one has no items. */
    public static EpochContent read(DynamoDbClient dynamo, String indexTable) {
        int epochs = 0;
        long writes = 0;
        long bytes = 0;
        long floor = 0;
        while (true) {
            String stream = AppendsEpoch.stream(PartitionId.ZERO, new EpochId(epochs)).toString();
            Map<String, AttributeValue> start = null;
            boolean any = false;
            do {
                Map<String, AttributeValue> from = start;
                QueryResponse r = dynamo.query(b -> b.tableName(indexTable).keyConditionExpression("p = :p")
                        .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(stream))).exclusiveStartKey(from));
                for (Map<String, AttributeValue> item : r.items()) {
                    any = true;
                    List<AttributeValue> types = item.get("c").l();
                    List<AttributeValue> events = item.get("e").l();
                    for (int k = 0; k < types.size(); k++) {
                        if (EpochEvent.INGESTED.equals(types.get(k).s())) {
                            long n = events.get(k).m().get("d").b().asByteArray().length;
                            writes++;
                            bytes += n;
                            floor += (n + 1023) / 1024;
                        }
                    }
                }
                start = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty() ? r.lastEvaluatedKey() : null;
            } while (start != null);
            if (!any) {
                break;
            }
            epochs++;
        }
        return new EpochContent(epochs, writes, bytes, floor);
    }
}
