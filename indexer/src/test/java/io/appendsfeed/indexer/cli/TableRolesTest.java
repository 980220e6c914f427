package io.appendsfeed.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.store.StoreTables;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** Every command checks what each table it is given holds before it reads or writes anything. */
@ExtendWith(LocalDynamoExtension.class)
class TableRolesTest {

    private CliFeed feed;

    @BeforeEach
    void setUp(LocalDynamo local) {
        feed = new CliFeed(local, 1);
        feed.ingest(feed.write("Account-1", "Opened", "Deposited"));
    }

    @Test
    void verify_with_the_tables_swapped_exits_2_and_says_so() {
        CliFeed.Run r = feed.feed("verify", "--index-table", feed.storeTable, "--store-table", feed.indexTable);

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().lines().toList()).hasSize(1);
        assertThat(r.err()).contains("--index-table '" + feed.storeTable + "' is a store table",
                "--store-table '" + feed.indexTable + "' is an index table", "exchange the two names");
        assertThat(r.out()).doesNotContain("OK");
    }

    @Test
    void epochs_on_a_store_table_says_it_is_a_store_table() {
        CliFeed.Run r = feed.feed("epochs", "--index-table", feed.storeTable);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--index-table '" + feed.storeTable + "' is a store table (it holds event streams such as 'Account-1'");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void every_index_command_refuses_a_store_table() {
        for (String[] args : new String[][] {{"checkpoints"}, {"checkpoints", "history", "--group", "g"}, {"tail", "--until-caught-up"},
            {"parked"}, {"parked", "release", "--group", "g", "--all"},
            {"checkpoints", "set", "--group", "g", "--partition", "0", "--to", "start", "--reason", "x", "--create-group", "--yes"},
            {"checkpoints", "delete", "--group", "g", "--yes"}}) {
            String[] withTable = java.util.stream.Stream.concat(java.util.Arrays.stream(args),
                    java.util.stream.Stream.of("--index-table", feed.storeTable)).toArray(String[]::new);
            CliFeed.Run r = feed.feed(withTable);
            assertThat(r.exit()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(r.err()).as(String.join(" ", args)).contains("is a store table");
        }
    }

    @Test
    void verify_refuses_an_index_table_as_the_store_and_one_table_as_both() {
        String empty = feed.local.freshTableName("empty");
        StoreTables.ensure(feed.local.dynamo(), empty, null);
        CliFeed.Run index = feed.feed("verify", "--store-table", feed.indexTable, "--index-table", empty);
        assertThat(index.exit()).isEqualTo(2);
        assertThat(index.err()).contains("--store-table '" + feed.indexTable + "' is an index table (it holds $AppendsIndex-0)");

        CliFeed.Run same = feed.feed("verify", "--store-table", feed.indexTable, "--index-table", feed.indexTable);
        assertThat(same.exit()).isEqualTo(2);
        assertThat(same.err()).contains("--store-table and --index-table are both '" + feed.indexTable + "'");
    }

    @Test
    void a_table_with_nothing_indexed_is_reported_and_refused_for_changes() {
        String empty = feed.local.freshTableName("empty");
        StoreTables.ensure(feed.local.dynamo(), empty, null);

        CliFeed.Run read = feed.feed("epochs", "--index-table", empty);
        assertThat(read.exit()).as(read.err()).isEqualTo(0);
        assertThat(read.out()).contains("(no $AppendsIndex-0 yet)");

        CliFeed.Run write = feed.feed("checkpoints", "set", "--index-table", empty, "--group", "g", "--partition", "0", "--to", "start",
                "--reason", "x", "--create-group", "--yes");
        assertThat(write.exit()).isEqualTo(2);
        assertThat(write.err()).contains("holds no feed yet (no $AppendsIndex-0)", "Start the indexer first");
    }

    @Test
    void a_table_of_another_shape_is_not_an_appendsfeed_table() {
        String other = feed.local.freshTableName("orders");
        feed.local.dynamo().createTable(b -> b.tableName(other).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(AttributeDefinition.builder().attributeName("orderId").attributeType(ScalarAttributeType.S).build())
                .keySchema(KeySchemaElement.builder().attributeName("orderId").keyType(KeyType.HASH).build()));

        CliFeed.Run r = feed.feed("checkpoints", "--index-table", other);

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--index-table: table '" + other + "' is not an appendsfeed store table: its hash key is 'orderId'", "it has no range key");
    }
}
