package io.appendsfeed.model.testing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import java.util.Map;

@ExtendWith(LocalDynamoExtension.class)
class LocalDynamoTest {

    @Test
    void server_has_streams_on_a_fresh_table(LocalDynamo local) {
        String table = local.freshTableName("harness");
        var created = local.dynamo().createTable(b -> b.tableName(table)
                .attributeDefinitions(AttributeDefinition.builder().attributeName("p").attributeType(ScalarAttributeType.S).build())
                .keySchema(KeySchemaElement.builder().attributeName("p").keyType(KeyType.HASH).build())
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .streamSpecification(StreamSpecification.builder().streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE).build()));
        String arn = created.tableDescription().latestStreamArn();
        local.dynamo().putItem(b -> b.tableName(table).item(Map.of("p", AttributeValue.fromS("x-1"))));

        var shard = local.streams().describeStream(b -> b.streamArn(arn)).streamDescription().shards().get(0);
        String it = local.streams().getShardIterator(b -> b.streamArn(arn).shardId(shard.shardId())
                .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
        var records = local.streams().getRecords(b -> b.shardIterator(it)).records();

        assertThat(records).hasSize(1);
        assertThat(records.get(0).dynamodb().newImage()).containsEntry("p", AttributeValue.fromS("x-1"));
        assertThat(local.freshTableName("t")).isNotEqualTo(local.freshTableName("t"));
    }
}
