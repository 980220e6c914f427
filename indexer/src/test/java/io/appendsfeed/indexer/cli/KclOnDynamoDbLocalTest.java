package io.appendsfeed.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.kcl.KclClients;
import io.appendsfeed.indexer.kcl.KclConfig;
import io.appendsfeed.indexer.kcl.KclIndexer;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** KCL's Streams adapter cannot read DynamoDB Local's streams: {@code feed kcl} says so at once instead of looping. */
@ExtendWith(LocalDynamoExtension.class)
class KclOnDynamoDbLocalTest {

    /** A guard against the old behaviour (the worker looped forever), not a measurement: the refusal reads one table. */
    static final Duration AT_ONCE = Duration.ofSeconds(30);

    @Test
    void feed_kcl_against_dynamodb_local_exits_2_with_one_line_pointing_to_feed_poll(LocalDynamo local) {
        String storeTable = IndexerTables.store(local);
        String indexTable = IndexerTables.index(local);
        String arn = local.dynamo().describeTable(b -> b.tableName(storeTable)).table().latestStreamArn();
        assertThat(arn).as("DynamoDB Local's stream ARN").contains(":ddblocal:");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CliContext ctx = new CliContext(Map.<String, String>of()::get, new PrintWriter(out, true), new PrintWriter(err, true),
                Clock.systemUTC());

        int exit = assertTimeoutPreemptively(AT_ONCE, () -> FeedCli.commandLine(ctx).execute("kcl",
                "--endpoint", local.endpoint().toString(), "--store-table", storeTable, "--index-table", indexTable));

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString().lines().toList()).containsExactly("feed kcl: the stream " + arn + " is DynamoDB Local's, and KCL's"
                + " DynamoDB Streams adapter rejects DynamoDB Local's stream ARNs (region 'ddblocal'): index it with `feed poll`"
                + " (StreamsPoller) instead");
        assertThat(local.dynamo().listTables().tableNames()).as("no lease table").doesNotContain("appendsfeed-" + storeTable);
        StoreClient index = new StoreClient(local.dynamo(), StoreConfig.builder(indexTable).reservedStreams(true).build());
        assertThat(index.readTip(FeedStreams.INDEX, true)).as("the index was not created").isEmpty();
    }

    @Test
    void the_worker_refuses_a_dynamodb_local_stream_before_creating_its_lease_table(LocalDynamo local) {
        String storeTable = IndexerTables.store(local);
        String arn = local.dynamo().describeTable(b -> b.tableName(storeTable)).table().latestStreamArn();
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(IndexerTables.index(local)).build());
        String application = local.freshTableName("app");
        try (KclClients clients = KclClients.of(local.settings())) {
            assertThatThrownBy(() -> KclIndexer.start(clients, indexer, KclConfig.builder(application, arn).build()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("feed poll").hasMessageContaining(arn);
        }
        assertThat(local.dynamo().listTables().tableNames()).as("no lease table").doesNotContain(application);
    }
}
