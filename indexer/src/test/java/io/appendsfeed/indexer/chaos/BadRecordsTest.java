package io.appendsfeed.indexer.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.FeedReadback;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.SourceSpan;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedFormatException;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Records and epochs the indexer cannot read: refused with what is wrong, and nothing before them lost. */
@ExtendWith(LocalDynamoExtension.class)
class BadRecordsTest {

    static Map<String, AttributeValue> tip(String p, long n, String... types) {
        Map<String, AttributeValue> m = new HashMap<>();
        m.put("p", AttributeValue.fromS(p));
        m.put("i", AttributeValue.fromN("2147483647"));
        m.put("n", AttributeValue.fromN(Long.toString(n)));
        m.put("a", AttributeValue.fromN(Integer.toString(types.length)));
        m.put("c", AttributeValue.fromL(java.util.Arrays.stream(types).map(AttributeValue::fromS).toList()));
        return m;
    }

    static ChangeRecord record(String seq, Map<String, AttributeValue> keys, Map<String, AttributeValue> image) {
        return new ChangeRecord(seq, "INSERT", "NEW_IMAGE", keys, image, null);
    }

    static ChangeRecord good(String seq, String stream) {
        Map<String, AttributeValue> img = tip(stream, 1, "Opened");
        return record(seq, Map.of("p", img.get("p"), "i", img.get("i")), img);
    }

    @Test
    void records_with_missing_or_mistyped_keys_stop_the_batch_there_naming_the_key_and_what_came_before_is_in(LocalDynamo local) {
        Map<String, AttributeValue> img = tip("Account-9", 1, "Opened");
        Map<String, List<Object>> cases = Map.of(
                "the key p is missing", List.of(Map.of("i", img.get("i"))),
                "the key i is missing", List.of(Map.of("p", img.get("p"))),
                "the key p is not a string (S)", List.of(Map.of("p", AttributeValue.fromN("42"), "i", img.get("i"))),
                "the key i is not a number (N)", List.of(Map.of("p", img.get("p"), "i", AttributeValue.fromS("tip"))),
                "not a stream name", List.of(Map.of("p", AttributeValue.fromS("NoDashHere"), "i", img.get("i"))));
        for (Map.Entry<String, List<Object>> c : cases.entrySet()) {
            String table = IndexerTables.index(local);
            Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(table).build());
            @SuppressWarnings("unchecked")
            ChangeRecord poison = record("2", (Map<String, AttributeValue>) c.getValue().get(0), img);
            BatchOutcome o = indexer.ingest(List.of(good("1", "Account-1"), poison, good("3", "Account-3")));

            assertThat(o.firstNotIngested()).as(c.getKey()).isEqualTo("2");
            assertThat(o.rejected().reason()).as(c.getKey()).contains(c.getKey());
            assertThat(o.rejected().sequenceNumber()).isEqualTo("2");
            new FeedReadback(local.dynamo(), table, 1).assertExactly(Map.of(StreamName.parse("Account-1"), List.of("Opened")));
            // the source resumes after the record (the poller's RECORD_AND_CONTINUE, or Lambda's failure destination took it)
            assertThat(indexer.ingest(List.of(good("3", "Account-3"))).complete()).isTrue();
            new FeedReadback(local.dynamo(), table, 1).assertExactly(Map.of(
                    StreamName.parse("Account-1"), List.of("Opened"), StreamName.parse("Account-3"), List.of("Opened")));
        }
    }

    @Test
    void an_epoch_written_by_a_newer_format_stops_ingestion_with_advice_to_upgrade_and_writes_nothing(LocalDynamo local) {
        String table = IndexerTables.index(local);
        Indexer.start(local.dynamo(), IndexerConfig.builder(table).build())
                .ingestSpans(List.of(SourceSpan.of(Span.of("Account-1", 0, "Opened"), "1")));
        StoreClient index = new StoreClient(local.dynamo(), StoreConfig.builder(table).reservedStreams(true).build());
        StreamName epoch = FeedStreams.epoch(PartitionId.of(0), EpochId.ZERO);
        index.append(epoch, Expected.version(1), List.of(EventData.of("Compacted", "{\"upTo\":1}".getBytes(StandardCharsets.UTF_8))));

        Indexer cold = Indexer.start(local.dynamo(), IndexerConfig.builder(table).build());
        BatchOutcome o = cold.ingestSpans(List.of(SourceSpan.of(Span.of("Account-1", 1, "Changed"), "2")));

        assertThat(o.complete()).isFalse();
        assertThat(o.firstNotIngested()).isEqualTo("2");
        assertThat(o.errors()).singleElement().isInstanceOf(FeedFormatException.class)
                .satisfies(e -> assertThat(e).hasMessageContaining("Compacted").hasMessageContaining("upgrade"));
        assertThat(index.readTip(epoch, true).orElseThrow().version()).as("nothing written after it").isEqualTo(2);
    }
}
