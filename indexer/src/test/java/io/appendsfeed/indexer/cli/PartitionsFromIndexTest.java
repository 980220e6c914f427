package io.appendsfeed.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.indexer.FeedReadback;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The operations take the partition count the index records; a different one given is refused in one line. */
@ExtendWith(LocalDynamoExtension.class)
class PartitionsFromIndexTest {

    record Run(int exit, String out, String err) {}

    private LocalDynamo local;
    private String storeTable;
    private String indexTable;
    private final Map<StreamName, List<String>> stored = new LinkedHashMap<>();
    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void indexWithTwoPartitions(LocalDynamo local) {
        this.local = local;
        storeTable = IndexerTables.store(local);
        indexTable = IndexerTables.index(local);
        Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable).partitions(2).build()); // the README's Quick start
        StoreClient store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).build());
        for (int s = 0; s < 6; s++) {
            StreamName name = StreamName.parse("Order-" + s);
            store.append(name, Expected.any(), List.of(EventData.json("Placed", "{}"), EventData.json("Paid", "{}")));
            stored.put(name, List.of("Placed", "Paid"));
        }
        env.put("APPENDS_DYNAMODB_ENDPOINT", local.endpoint().toString());
    }

    @Test
    void backfill_without_partitions_indexes_into_the_partitions_the_index_records() {
        Run r = feed("backfill", "--store-table", storeTable, "--index-table", indexTable);

        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        assertThat(r.out()).contains("12 events ingested");
        new FeedReadback(local.dynamo(), indexTable, 2).assertExactly(stored);
    }

    @Test
    void backfill_with_another_partition_count_is_refused_in_one_line_naming_both_counts() {
        Run r = feed("backfill", "--store-table", storeTable, "--index-table", indexTable, "--partitions", "1");

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().lines().toList()).singleElement().asString()
                .startsWith("feed backfill: index table '" + indexTable + "' was created with 2 partition(s) but this indexer is configured"
                        + " with 1").contains("configure 2 or leave the partitions unset");
        assertThat(new FeedReadback(local.dynamo(), indexTable, 2).streams()).as("nothing indexed").isEmpty();
    }

    @Test
    void a_partition_count_from_the_environment_is_refused_likewise() {
        env.put("APPENDS_PARTITIONS", "3");
        Run r = feed("backfill", "--store-table", storeTable, "--index-table", indexTable);

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().lines().toList()).singleElement().asString()
                .startsWith("feed backfill: index table '" + indexTable + "' was created with 2 partition(s)")
                .contains("configured with 3");
    }

    @Test
    void poll_with_another_partition_count_is_refused_before_polling() {
        Run r = feed("poll", "--store-table", storeTable, "--index-table", indexTable, "--partitions", "3");

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().lines().toList()).singleElement().asString()
                .startsWith("feed poll: index table '" + indexTable + "' was created with 2 partition(s)");
    }

    @Test
    void an_unusable_partition_count_is_refused_as_usage() {
        Run r = feed("backfill", "--store-table", storeTable, "--index-table", indexTable, "--partitions", "0");

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().lines().toList()).singleElement().asString().startsWith("feed backfill: APPENDS_PARTITIONS is '0': give a whole number >= 1");
    }

    private Run feed(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CliContext ctx = new CliContext(env::get, new PrintWriter(out, true), new PrintWriter(err, true), Clock.systemUTC());
        int exit = FeedCli.commandLine(ctx).execute(args);
        return new Run(exit, out.toString(), err.toString());
    }
}
