package io.appendsfeed.model.testing.faults;

import io.appendsfeed.model.testing.LocalDynamo;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/** A small {@code p}/{@code i} table made with the raw SDK, for the fault injector's own tests. */
final class FaultTables {

    private FaultTables() {}

    /** Creates a fresh table; with {@code streams}, a NEW_IMAGE stream. Returns its name. */
    static String create(LocalDynamo local, boolean streams) {
        String table = local.freshTableName("faults");
        local.dynamo().createTable(b -> b.tableName(table)
                .attributeDefinitions(
                        AttributeDefinition.builder().attributeName("p").attributeType(ScalarAttributeType.S).build(),
                        AttributeDefinition.builder().attributeName("i").attributeType(ScalarAttributeType.N).build())
                .keySchema(
                        KeySchemaElement.builder().attributeName("p").keyType(KeyType.HASH).build(),
                        KeySchemaElement.builder().attributeName("i").keyType(KeyType.RANGE).build())
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .streamSpecification(streams
                        ? StreamSpecification.builder().streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE).build()
                        : null));
        return table;
    }

    static Map<String, AttributeValue> key(String p, int i) {
        return Map.of("p", AttributeValue.fromS(p), "i", AttributeValue.fromN(Integer.toString(i)));
    }

    static PutItemRequest put(String table, String p, int i) {
        return PutItemRequest.builder().tableName(table).item(key(p, i)).build();
    }

    /** The item, read strongly consistently with the raw client; empty when absent. */
    static Map<String, AttributeValue> get(DynamoDbClient raw, String table, String p, int i) {
        return raw.getItem(b -> b.tableName(table).key(key(p, i)).consistentRead(true)).item();
    }
}
