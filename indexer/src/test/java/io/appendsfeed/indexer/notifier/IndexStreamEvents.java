package io.appendsfeed.indexer.notifier;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.indexer.StreamRecords;
import io.appendsfeed.indexer.deploy.AwsEventJson;
import io.appendsfeed.model.testing.LocalDynamo;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * Test support: a table's real Streams records (DynamoDB Local) as Lambda delivers them to a
 * function: the event's JSON.
 */
final class IndexStreamEvents {

    private IndexStreamEvents() {}

    static List<Record> records(LocalDynamo local, String table) {
        return StreamRecords.all(local.dynamo(), local.streams(), table);
    }

    static String arn(LocalDynamo local, String table) {
        return local.dynamo().describeTable(b -> b.tableName(table)).table().latestStreamArn();
    }

    static ObjectNode json(LocalDynamo local, String table, List<Record> records) {
        return AwsEventJson.event(records, arn(local, table));
    }

    static byte[] event(ObjectNode json) {
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }

    static byte[] event(LocalDynamo local, String table, List<Record> records) {
        return event(json(local, table, records));
    }

    /** The records in batches of at most {@code size}, as an event source mapping hands them over. */
    static List<List<Record>> batches(List<Record> records, int size) {
        List<List<Record>> out = new ArrayList<>();
        for (int from = 0; from < records.size(); from += size) {
            out.add(records.subList(from, Math.min(records.size(), from + size)));
        }
        return out;
    }
}
