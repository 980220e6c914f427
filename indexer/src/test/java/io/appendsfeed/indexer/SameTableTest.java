package io.appendsfeed.indexer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.indexer.backfill.Backfill;
import io.appendsfeed.indexer.backfill.BackfillConfig;
import io.appendsfeed.indexer.kcl.KclClients;
import io.appendsfeed.indexer.kcl.KclConfig;
import io.appendsfeed.indexer.kcl.KclIndexer;
import io.appendsfeed.indexer.poller.PollerConfig;
import io.appendsfeed.indexer.poller.StreamsPoller;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every deployable refuses to index a table into itself: a store writer could then append entries
 * to the feed's epochs (the Lambda's refusal is in IndexerHandlerTest and LambdaSettingsTest).
 */
@ExtendWith(LocalDynamoExtension.class)
class SameTableTest {

    private static String sameTable(String table) {
        return "the store table '" + table + "' and the index table '" + table + "' are the same table";
    }

    @Test
    void names_and_arns_of_one_table_are_the_same_table_and_others_are_not() {
        String arn = "arn:aws:dynamodb:eu-west-1:123456789012:table/orders";
        assertThatThrownBy(() -> SameTableException.check("orders", "orders")).isInstanceOf(SameTableException.class)
                .hasMessageContaining(sameTable("orders")).hasMessageContaining("a table of its own")
                .satisfies(e -> assertThat(((SameTableException) e).storeTable()).isEqualTo("orders"));
        assertThatThrownBy(() -> SameTableException.check(arn + "/stream/2026-01-01T00:00:00.000", "orders"))
                .isInstanceOf(SameTableException.class);
        assertThatThrownBy(() -> SameTableException.check(arn + "/stream/x", arn)).isInstanceOf(SameTableException.class);
        assertThatCode(() -> SameTableException.check("orders", "orders-index")).doesNotThrowAnyException();
        assertThatCode(() -> SameTableException.check(arn, "arn:aws:dynamodb:eu-west-1:999999999999:table/orders"))
                .as("another account's table of the same name").doesNotThrowAnyException();
        assertThat(SameTableException.tableName(arn + "/stream/x")).isEqualTo("orders");
    }

    @Test
    void the_poller_refuses_its_store_table_as_index(LocalDynamo local) {
        String table = IndexerTables.store(local);
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(table).build());
        assertThatThrownBy(() -> new StreamsPoller(local.dynamo(), local.streams(), indexer, PollerConfig.of(table)))
                .isInstanceOf(SameTableException.class).hasMessageContaining(sameTable(table));
    }

    @Test
    void the_kcl_worker_refuses_the_index_tables_own_stream_before_creating_anything(LocalDynamo local) {
        String table = IndexerTables.store(local);
        String arn = local.dynamo().describeTable(b -> b.tableName(table)).table().latestStreamArn();
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(table).build());
        String application = local.freshTableName("app");
        try (KclClients clients = KclClients.of(local.settings())) {
            assertThatThrownBy(() -> KclIndexer.start(clients, indexer, KclConfig.builder(application, arn).build()))
                    .isInstanceOf(SameTableException.class).hasMessageContaining(arn).hasMessageContaining(table);
        }
        assertThat(local.dynamo().listTables().tableNames()).as("no lease table").doesNotContain(application);
    }

    @Test
    void the_backfill_refuses_its_store_table_as_index(LocalDynamo local) {
        String table = IndexerTables.store(local);
        assertThatThrownBy(() -> new Backfill(local.dynamo(), IndexerConfig.builder(table).build(), BackfillConfig.of(table)))
                .isInstanceOf(SameTableException.class).hasMessageContaining(sameTable(table));
        assertThat(local.dynamo().getItem(b -> b.tableName(table).key(java.util.Map.of(
                "p", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(FeedStreams.INDEX.value()),
                "i", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN("2147483647")))).hasItem())
                .as("nothing written").isFalse();
    }
}
