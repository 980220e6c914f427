package io.appendsfeed.model.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.model.store.StoreTables.WrongTableShapeException;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

@ExtendWith(LocalDynamoExtension.class)
class StoreTablesTest {

    @Test
    void ensure_creates_an_on_demand_table_with_the_format_keys_and_streams(LocalDynamo local) {
        String table = local.freshTableName("tables");

        StoreTables.ensure(local.dynamo(), table, StreamViewType.NEW_AND_OLD_IMAGES);

        TableDescription d = local.dynamo().describeTable(b -> b.tableName(table)).table();
        assertThat(d.keySchema()).containsExactlyInAnyOrder(
                KeySchemaElement.builder().attributeName("p").keyType(KeyType.HASH).build(),
                KeySchemaElement.builder().attributeName("i").keyType(KeyType.RANGE).build());
        assertThat(d.attributeDefinitions()).containsExactlyInAnyOrder(
                AttributeDefinition.builder().attributeName("p").attributeType(ScalarAttributeType.S).build(),
                AttributeDefinition.builder().attributeName("i").attributeType(ScalarAttributeType.N).build());
        assertThat(d.billingModeSummary().billingMode()).isEqualTo(BillingMode.PAY_PER_REQUEST);
        assertThat(d.streamSpecification().streamViewType()).isEqualTo(StreamViewType.NEW_AND_OLD_IMAGES);
        assertThatCode(() -> StoreTables.ensure(local.dynamo(), table, StreamViewType.NEW_AND_OLD_IMAGES)).doesNotThrowAnyException();
    }

    @Test
    void an_index_table_needs_no_streams(LocalDynamo local) {
        String table = local.freshTableName("index");

        StoreTables.ensure(local.dynamo(), table, null);

        assertThat(local.dynamo().describeTable(b -> b.tableName(table)).table().streamSpecification()).isNull();
        assertThatCode(() -> StoreTables.verify(local.dynamo(), table, false)).doesNotThrowAnyException();
        assertThatThrownBy(() -> StoreTables.verify(local.dynamo(), table, true))
                .isInstanceOf(WrongTableShapeException.class).hasMessageContaining("Streams is off").hasMessageContaining("NEW_IMAGE");
    }

    @Test
    void a_missing_table_is_named_with_what_to_do(LocalDynamo local) {
        String table = local.freshTableName("missing");

        assertThatThrownBy(() -> StoreTables.verify(local.dynamo(), table, true))
                .isInstanceOfSatisfying(WrongTableShapeException.class, e -> assertThat(e.table()).isEqualTo(table))
                .hasMessageContaining("does not exist").hasMessageContaining("StoreTables.ensure");
    }

    @Test
    void wrong_key_names_are_named(LocalDynamo local) {
        String table = create(local, "pk", ScalarAttributeType.S, "sk", ScalarAttributeType.N, StreamViewType.NEW_IMAGE);

        assertThatThrownBy(() -> StoreTables.ensure(local.dynamo(), table, StreamViewType.NEW_IMAGE))
                .isInstanceOf(WrongTableShapeException.class)
                .hasMessageContaining("hash key is 'pk'; the format needs 'p' (S)")
                .hasMessageContaining("range key is 'sk'; the format needs 'i' (N)")
                .hasMessageContaining("create a new table");
    }

    @Test
    void wrong_key_types_are_named(LocalDynamo local) {
        String table = create(local, "p", ScalarAttributeType.B, "i", ScalarAttributeType.S, StreamViewType.NEW_IMAGE);

        assertThatThrownBy(() -> StoreTables.verify(local.dynamo(), table, true))
                .isInstanceOf(WrongTableShapeException.class)
                .hasMessageContaining("hash key 'p' is of type B; the format needs S")
                .hasMessageContaining("range key 'i' is of type S; the format needs N");
    }

    @Test
    void a_missing_range_key_is_named(LocalDynamo local) {
        String table = create(local, "p", ScalarAttributeType.S, null, null, StreamViewType.NEW_IMAGE);

        assertThatThrownBy(() -> StoreTables.verify(local.dynamo(), table, true))
                .isInstanceOf(WrongTableShapeException.class).hasMessageContaining("no range key; the format needs range key 'i' (N)");
    }

    @Test
    void streams_off_or_without_new_images_is_named_when_required(LocalDynamo local) {
        String off = create(local, "p", ScalarAttributeType.S, "i", ScalarAttributeType.N, null);
        String keysOnly = create(local, "p", ScalarAttributeType.S, "i", ScalarAttributeType.N, StreamViewType.KEYS_ONLY);
        String oldImage = create(local, "p", ScalarAttributeType.S, "i", ScalarAttributeType.N, StreamViewType.OLD_IMAGE);

        assertThatThrownBy(() -> StoreTables.ensure(local.dynamo(), off, StreamViewType.NEW_IMAGE))
                .isInstanceOf(WrongTableShapeException.class).hasMessageContaining("Streams is off")
                .hasMessageContaining("update-table --table-name " + off);
        assertThatThrownBy(() -> StoreTables.verify(local.dynamo(), keysOnly, true))
                .isInstanceOf(WrongTableShapeException.class).hasMessageContaining("view type KEYS_ONLY");
        assertThatThrownBy(() -> StoreTables.verify(local.dynamo(), oldImage, true))
                .isInstanceOf(WrongTableShapeException.class).hasMessageContaining("view type OLD_IMAGE");
        assertThatCode(() -> StoreTables.verify(local.dynamo(), keysOnly, false)).doesNotThrowAnyException();
    }

    @Test
    void ensure_refuses_a_view_type_without_new_images(LocalDynamo local) {
        String table = local.freshTableName("view");

        assertThatThrownBy(() -> StoreTables.ensure(local.dynamo(), table, StreamViewType.KEYS_ONLY))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NEW_IMAGE or NEW_AND_OLD_IMAGES");
        assertThat(local.dynamo().listTables().tableNames()).doesNotContain(table);
    }

    private static String create(LocalDynamo local, String hash, ScalarAttributeType hashType, String range,
                                 ScalarAttributeType rangeType, StreamViewType view) {
        String table = local.freshTableName("shape");
        List<AttributeDefinition> defs = new ArrayList<>(List.of(AttributeDefinition.builder().attributeName(hash).attributeType(hashType).build()));
        List<KeySchemaElement> keys = new ArrayList<>(List.of(KeySchemaElement.builder().attributeName(hash).keyType(KeyType.HASH).build()));
        if (range != null) {
            defs.add(AttributeDefinition.builder().attributeName(range).attributeType(rangeType).build());
            keys.add(KeySchemaElement.builder().attributeName(range).keyType(KeyType.RANGE).build());
        }
        local.dynamo().createTable(b -> b.tableName(table).attributeDefinitions(defs).keySchema(keys)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .streamSpecification(view == null ? null : StreamSpecification.builder().streamEnabled(true).streamViewType(view).build()));
        return table;
    }
}
