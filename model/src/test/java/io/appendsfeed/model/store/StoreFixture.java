package io.appendsfeed.model.store;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.testing.LocalDynamo;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/** A fresh store table on DynamoDB Local and helpers to look at its raw items. */
final class StoreFixture {

    final LocalDynamo local;
    final String table;

    private StoreFixture(LocalDynamo local, String table) {
        this.local = local;
        this.table = table;
    }

    static StoreFixture fresh(LocalDynamo local) {
        String table = local.freshTableName("store");
        StoreTables.ensure(local.dynamo(), table, StreamViewType.NEW_IMAGE);
        return new StoreFixture(local, table);
    }

    StoreClient client() {
        return client(b -> b);
    }

    StoreClient client(UnaryOperator<StoreConfig.Builder> config) {
        return new StoreClient(local.dynamo(), config.apply(StoreConfig.builder(table)).build());
    }

    /** The raw item, or null. */
    Map<String, AttributeValue> item(StreamName stream, long i) {
        var got = local.dynamo().getItem(b -> b.tableName(table).consistentRead(true)
                .key(Map.of("p", AttributeValue.fromS(stream.value()), "i", AttributeValue.fromN(Long.toString(i)))));
        return got.hasItem() && !got.item().isEmpty() ? got.item() : null;
    }

    Map<String, AttributeValue> tip(StreamName stream) {
        return item(stream, 2147483647L);
    }

    /** Every item of the stream, ascending by {@code i}. */
    List<Map<String, AttributeValue>> items(StreamName stream) {
        return local.dynamo().query(b -> b.tableName(table).consistentRead(true)
                .keyConditionExpression("p = :p").expressionAttributeValues(Map.of(":p", AttributeValue.fromS(stream.value()))))
                .items();
    }

    void put(Map<String, AttributeValue> item) {
        local.dynamo().putItem(b -> b.tableName(table).item(item));
    }

    static List<EventData> events(String prefix, int count) {
        List<EventData> out = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            out.add(EventData.json(prefix + "Happened", "{\"k\":" + k + ",\"p\":\"" + prefix + "\"}"));
        }
        return out;
    }

    static String text(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
