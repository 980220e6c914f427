package io.appendsfeed.indexer;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.indexer.poller.PollerConfig;
import io.appendsfeed.indexer.poller.StreamsPoller;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreTables.WrongTableShapeException;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The README's code run before its tables exist: each call names the missing table and says how to create it. */
@ExtendWith(LocalDynamoExtension.class)
class MissingTableTest {

    @Test
    void a_store_client_an_indexer_and_a_poller_name_the_table_that_does_not_exist(LocalDynamo local) {
        String missing = local.freshTableName("never-created");
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(missing).build());
        assertThatThrownBy(() -> store.append(StreamName.parse("Order-1"), Expected.noStream(), List.of(EventData.json("Placed", "{}"))))
                .isInstanceOfSatisfying(WrongTableShapeException.class, e -> org.assertj.core.api.Assertions.assertThat(e.table()).isEqualTo(missing))
                .hasMessageContaining("'" + missing + "' does not exist").hasMessageContaining("StoreTables.ensure");

        assertThatThrownBy(() -> Indexer.start(local.dynamo(), IndexerConfig.builder(missing).build()))
                .isInstanceOf(WrongTableShapeException.class).hasMessageContaining("'" + missing + "'");

        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(IndexerTables.index(local)).build());
        assertThatThrownBy(() -> new StreamsPoller(local.dynamo(), local.streams(), indexer, PollerConfig.of(missing)))
                .isInstanceOf(WrongTableShapeException.class).hasMessageContaining("'" + missing + "'");
    }
}
