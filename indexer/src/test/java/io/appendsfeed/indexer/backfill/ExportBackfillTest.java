package io.appendsfeed.indexer.backfill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.indexer.FeedReadback;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.backfill.ExportFiles.ExportFormatException;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreTables;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Backfill from a DynamoDB export to S3: export files made from a test table, exactly as AWS writes them. */
@ExtendWith(LocalDynamoExtension.class)
class ExportBackfillTest {

    private LocalDynamo local;
    private String storeTable;
    private StoreClient store;
    private final List<StreamName> streams = new ArrayList<>();

    @BeforeEach
    void setUp(LocalDynamo local) {
        this.local = local;
        storeTable = local.freshTableName("store");
        StoreTables.ensure(local.dynamo(), storeTable, null);
        // small Tips: streams are calved, so a stream is several items, spread over several files
        store = new StoreClient(local.dynamo(), StoreConfig.builder(storeTable).tipMaxBytes(300).reservedStreams(true).build());
        for (int s = 0; s < 15; s++) {
            StreamName name = StreamName.parse("Account-" + s);
            streams.add(name);
            for (int e = 0; e < s % 5 + 1; e++) {
                store.append(name, Expected.any(), List.of(EventData.json("Deposited", "{\"n\":" + e + "}"),
                        EventData.json("Withdrawn", "{\"n\":" + e + "}")));
            }
        }
        store.append(StreamName.parse("$Internal-0"), Expected.any(), List.of(EventData.json("Noted", "{}")));
    }

    @Test
    void an_export_is_indexed_whole_in_order_like_a_scan_and_a_rerun_adds_nothing(@TempDir Path bucket) {
        Path export = ExportFixtures.write(local.dynamo(), storeTable, bucket, 3);
        String indexTable = IndexerTables.index(local);
        IndexerConfig indexer = IndexerConfig.builder(indexTable).partitions(2).build();
        BackfillConfig config = BackfillConfig.of(storeTable).withSegments(2).withSpansPerBatch(3);

        BackfillResult first = new Backfill(local.dynamo(), indexer, config).run(ExportFiles.folder(export));

        Map<StreamName, List<String>> stored = stored();
        new FeedReadback(local.dynamo(), indexTable, 2).assertExactly(stored);
        assertThat(first.eventsIngested()).isEqualTo(stored.values().stream().mapToLong(List::size).sum());
        assertThat(first.streams()).isEqualTo(streams.size());
        assertThat(first.reservedItemsSkipped()).isEqualTo(1);
        assertThat(first.itemsScanned()).as("every item of every file").isEqualTo(countItems());
        assertThat(first.complete()).isTrue();

        BackfillResult again = new Backfill(local.dynamo(), indexer, config).run(ExportFiles.folder(export));
        assertThat(again.eventsIngested()).isZero();
        assertThat(again.duplicatesDropped()).isEqualTo(first.eventsIngested());
    }

    @Test
    void an_export_and_a_scan_of_the_same_table_make_the_same_feed(@TempDir Path bucket) {
        Path export = ExportFixtures.write(local.dynamo(), storeTable, bucket, 2);
        String fromExport = IndexerTables.index(local);
        String fromScan = IndexerTables.index(local);
        BackfillConfig config = BackfillConfig.of(storeTable);
        new Backfill(local.dynamo(), IndexerConfig.builder(fromExport).build(), config).run(ExportFiles.folder(export));
        new Backfill(local.dynamo(), IndexerConfig.builder(fromScan).build(), config).run();
        assertThat(new FeedReadback(local.dynamo(), fromExport, 1).streams()).isEqualTo(new FeedReadback(local.dynamo(), fromScan, 1).streams());
    }

    @Test
    void an_export_of_another_table_is_refused_before_anything_is_written(@TempDir Path bucket) {
        Path export = ExportFixtures.write(local.dynamo(), storeTable, bucket, 1);
        String indexTable = IndexerTables.index(local);
        Backfill backfill = new Backfill(local.dynamo(), IndexerConfig.builder(indexTable).build(), BackfillConfig.of("orders-store"));
        assertThatThrownBy(() -> backfill.run(ExportFiles.folder(export))).isInstanceOf(ExportFormatException.class)
                .hasMessageContaining("the export is of table '" + storeTable + "'").hasMessageContaining("not of the store table 'orders-store'");
        assertThat(new FeedReadback(local.dynamo(), indexTable, 1).streams()).isEmpty();
    }

    @Test
    void a_corrupt_or_truncated_data_file_is_named(@TempDir Path bucket) throws IOException {
        Path export = ExportFixtures.write(local.dynamo(), storeTable, bucket, 1);
        Path data;
        try (var files = Files.list(export.resolve("data"))) {
            data = files.findFirst().orElseThrow();
        }
        // the same items written again: the bytes (gzip header time) differ from what the manifest's MD5 says
        byte[] items = new java.util.zip.GZIPInputStream(Files.newInputStream(data)).readAllBytes();
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(data)) {
            { def.setLevel(1); }
        }) {
            out.write(items);
        }
        Backfill backfill = new Backfill(local.dynamo(), IndexerConfig.builder(IndexerTables.index(local)).build(),
                BackfillConfig.of(storeTable));
        assertThatThrownBy(() -> backfill.run(ExportFiles.folder(export))).isInstanceOf(ExportFormatException.class)
                .hasMessageContaining("data/" + data.getFileName()).hasMessageContaining("where the manifest says");

        // a file cut short: fewer items than the manifest counts
        String text = new String(items, java.nio.charset.StandardCharsets.UTF_8);
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(data))) {
            out.write(text.substring(0, text.indexOf('\n') + 1).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        assertThatThrownBy(() -> backfill.run(ExportFiles.folder(export))).isInstanceOf(ExportFormatException.class)
                .hasMessageContaining("holds 1 items where the manifest says");
    }

    @Test
    void an_incremental_or_ion_export_is_refused_saying_what_to_export(@TempDir Path bucket) throws IOException {
        Path export = ExportFixtures.write(local.dynamo(), storeTable, bucket, 1);
        Path summary = export.resolve("manifest-summary.json");
        Backfill backfill = new Backfill(local.dynamo(), IndexerConfig.builder(IndexerTables.index(local)).build(),
                BackfillConfig.of(storeTable));
        String original = Files.readString(summary);

        Files.writeString(summary, original.replace("\"FULL_EXPORT\"", "\"INCREMENTAL_EXPORT\""));
        assertThatThrownBy(() -> backfill.run(ExportFiles.folder(export))).isInstanceOf(ExportFormatException.class)
                .hasMessageContaining("holds changes, not the table's items");

        Files.writeString(summary, original.replace("\"DYNAMODB_JSON\"", "\"ION\""));
        assertThatThrownBy(() -> backfill.run(ExportFiles.folder(export))).isInstanceOf(ExportFormatException.class)
                .hasMessageContaining("the export is in ION");

        assertThatThrownBy(() -> backfill.run(ExportFiles.folder(bucket))).isInstanceOf(ExportFormatException.class)
                .hasMessageContaining("manifest-summary.json: not found").hasMessageContaining("give the export's own folder");
    }

    private long countItems() {
        return local.dynamo().scanPaginator(b -> b.tableName(storeTable).select("COUNT")).stream().mapToLong(r -> r.count()).sum();
    }

    private Map<StreamName, List<String>> stored() {
        Map<StreamName, List<String>> out = new LinkedHashMap<>();
        for (StreamName s : streams) {
            out.put(s, store.readAll(s, Read.forward(0).typesOnly().strongly()).stream().map(StoredEvent::type).toList());
        }
        return out;
    }
}
