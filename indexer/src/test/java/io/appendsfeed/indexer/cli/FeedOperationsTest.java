package io.appendsfeed.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.indexer.FeedReadback;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The indexer's operations in the one CLI: the same options, refusals and exit codes as the feed commands. */
@ExtendWith(LocalDynamoExtension.class)
class FeedOperationsTest {

    record Run(int exit, String out, String err) {}

    private LocalDynamo local;
    private String storeTable;
    private String indexTable;
    private StoreClient store;
    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void setUp(LocalDynamo local) {
        this.local = local;
        storeTable = IndexerTables.store(local);
        indexTable = IndexerTables.index(local);
        store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).tipMaxBytes(300).build());
        for (int s = 0; s < 6; s++) {
            for (int e = 0; e < 3; e++) {
                store.append(StreamName.parse("Account-" + s), Expected.any(), List.of(EventData.json("Deposited", "{\"n\":" + e + "}")));
            }
        }
        env.put("APPENDS_DYNAMODB_ENDPOINT", local.endpoint().toString());
    }

    @Test
    void backfill_by_scan_indexes_the_store_with_options_in_place_of_variables() {
        env.put("APPENDS_SEGMENTS", "many"); // the option wins; the variable is never read
        Run r = feed("backfill", "--store-table", storeTable, "--index-table", indexTable, "--segments", "2", "--partitions", "2");

        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        assertThat(r.out()).contains("18 events ingested", "0 left out");
        new FeedReadback(local.dynamo(), indexTable, 2).assertExactly(stored());
    }

    @Test
    void backfill_from_an_export_folder_indexes_the_same(@TempDir Path bucket) {
        Path export = io.appendsfeed.indexer.backfill.ExportFixtures.write(local.dynamo(), storeTable, bucket, 2);
        Run r = feed("backfill", "--store-table", storeTable, "--index-table", indexTable, "--export", export.toString());

        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        assertThat(r.out()).contains("18 events ingested");
        new FeedReadback(local.dynamo(), indexTable, 1).assertExactly(stored());
    }

    @Test
    void operations_refuse_swapped_or_identical_tables_before_writing() {
        Run swapped = feed("backfill", "--store-table", indexTable, "--index-table", storeTable);
        assertThat(swapped.exit()).isEqualTo(2);
        assertThat(swapped.err()).contains("--index-table '" + storeTable + "' is a store table");
        assertThat(new FeedReadback(local.dynamo(), indexTable, 1).streams()).isEmpty();

        for (String op : List.of("backfill", "poll", "kcl")) {
            Run same = feed(op, "--store-table", storeTable, "--index-table", storeTable);
            assertThat(same.exit()).as(op).isEqualTo(2);
            assertThat(same.err()).as(op).contains("--store-table and --index-table are both '" + storeTable + "'");
        }
    }

    @Test
    void unknown_options_and_malformed_values_are_refused_with_exit_2() {
        Run typo = feed("backfill", "--store-table", storeTable, "--index-table", indexTable, "--segmnets", "2");
        assertThat(typo.exit()).isEqualTo(2);
        assertThat(typo.err()).contains("Unknown options: '--segmnets'", "Possible solutions: --segments");

        Run help = feed("backfill", "--help");
        assertThat(help.exit()).isEqualTo(0);
        assertThat(help.out()).contains("Usage: feed backfill", "--export", "--endpoint", "--profile");

        Run action = feed("kcl", "--store-table", storeTable, "--index-table", indexTable, "--on-rejected", "IGNORE");
        assertThat(action.exit()).isEqualTo(2);
        assertThat(action.err().lines().toList()).hasSize(1);
        assertThat(action.err()).contains("STOP_SHARD", "RECORD_AND_CONTINUE");

        Run segments = feed("backfill", "--store-table", storeTable, "--index-table", indexTable, "--segments", "0");
        assertThat(segments.exit()).isEqualTo(2);
        assertThat(segments.err().lines().toList()).hasSize(1);

        Run export = feed("backfill", "--store-table", storeTable, "--index-table", indexTable, "--export", "/no/such/folder");
        assertThat(export.exit()).isEqualTo(2);
        assertThat(export.err()).contains("--export '/no/such/folder' is not a folder");
    }

    @Test
    void every_command_of_the_one_cli_answers_help() {
        for (String[] path : new String[][] {{"backfill"}, {"kcl"}, {"poll"}, {"checkpoints"}, {"checkpoints", "set"},
            {"checkpoints", "delete"}, {"epochs"}, {"tail"}, {"parked"}, {"verify"}}) {
            String[] args = java.util.stream.Stream.concat(java.util.Arrays.stream(path), java.util.stream.Stream.of("--help"))
                    .toArray(String[]::new);
            Run r = feed(args);
            assertThat(r.exit()).as(String.join(" ", args)).isEqualTo(0);
            assertThat(r.out()).contains("Usage: feed " + String.join(" ", path));
        }
    }

    private Run feed(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CliContext ctx = new CliContext(env::get, new PrintWriter(out, true), new PrintWriter(err, true), Clock.systemUTC());
        int exit = FeedCli.commandLine(ctx).execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private Map<StreamName, List<String>> stored() {
        Map<StreamName, List<String>> out = new LinkedHashMap<>();
        for (int s = 0; s < 6; s++) {
            StreamName name = StreamName.parse("Account-" + s);
            out.put(name, store.readAll(name, Read.forward(0).typesOnly().strongly()).stream().map(StoredEvent::type).toList());
        }
        return out;
    }
}
