package io.appendsfeed.indexer.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.indexer.FeedReadback;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.SameTableException;
import io.appendsfeed.indexer.deploy.AwsEventJson;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.Tip;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The handler the template deploys, fed the event's JSON as the Lambda runtime hands it over, against DynamoDB Local. */
@ExtendWith(LocalDynamoExtension.class)
class IndexerStreamHandlerTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static IndexerStreamHandler handler(LocalDynamo local, String indexTable) {
        // the fixtures come from the stream of a table named "store"
        return new IndexerStreamHandler(LambdaSettings.from(Map.of("APPENDS_INDEX_TABLE", indexTable, "APPENDS_STORE_TABLE", "store",
                "APPENDS_DYNAMODB_ENDPOINT", local.endpoint().toString())::get));
    }

    /** Calls the handler as the runtime does; the batch item failures' identifiers it answered with. */
    static List<String> failures(IndexerStreamHandler handler, JsonNode event) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            handler.handleRequest(new ByteArrayInputStream(JSON.writeValueAsBytes(event)), out, null);
            JsonNode response = JSON.readTree(out.toByteArray());
            assertThat(response.fieldNames()).toIterable().containsExactly("batchItemFailures");
            List<String> ids = new ArrayList<>();
            response.get("batchItemFailures").forEach(f -> {
                assertThat(f.fieldNames()).toIterable().containsExactly("itemIdentifier");
                ids.add(f.get("itemIdentifier").asText());
            });
            return ids;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ObjectNode resource(String name) {
        try (InputStream in = IndexerStreamHandlerTest.class.getResourceAsStream("/lambda/" + name)) {
            return (ObjectNode) JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void assertAccount17Whole(LocalDynamo local, String index) {
        new FeedReadback(local.dynamo(), index, 1).assertExactly(Map.of(
                StreamName.parse("Account-17"), List.of("Opened", "Deposited", "Withdrawn")));
    }

    @Test
    void a_batch_as_large_as_the_mapping_allows_leaves_the_tip_behind_and_the_schedules_event_moves_it(LocalDynamo local)
            throws IOException {
        String index = IndexerTables.index(local);
        IndexerStreamHandler handler = new IndexerStreamHandler(LambdaSettings.from(Map.of("APPENDS_INDEX_TABLE", index,
                "APPENDS_STORE_TABLE", "store", "APPENDS_DYNAMODB_ENDPOINT", local.endpoint().toString(),
                "APPENDS_LAMBDA_BATCH_SIZE", "5")::get)); // the fixture's 5 records: a full batch
        StoreClient feed = new StoreClient(local.dynamo(), StoreConfig.builder(index).reservedStreams(true).build());
        StreamName epoch = FeedStreams.epoch(PartitionId.of(0), EpochId.ZERO);

        assertThat(failures(handler, resource("two-appends-and-noise.json"))).isEmpty();
        long calves = feed.readAll(epoch, Read.forward(0).strongly()).size();
        assertThat(calves).isPositive();
        assertThat(feed.readTip(epoch, true).map(Tip::version).orElse(0L)).as("behind its calves").isLessThan(calves);

        ObjectNode scheduled = JSON.createObjectNode().put("version", "0").put("id", "53dc4d37-cffa-4f76-80c9-8b7d4a4d2eaa")
                .put("detail-type", "Scheduled Event").put("source", "aws.events").put("account", "123456789012")
                .put("time", "2026-11-27T21:00:00Z").put("region", "eu-west-1");
        scheduled.putArray("resources").add("arn:aws:events:eu-west-1:123456789012:rule/indexer-TipSchedule");
        scheduled.putObject("detail");
        assertThat(failures(handler, scheduled)).isEmpty();

        assertThat(feed.readTip(epoch, true).map(Tip::version)).as("at its calves' end").contains(calves);
        assertAccount17Whole(local, index);
    }

    @Test
    void aws_shaped_batch_is_ingested_and_acknowledged_whole(LocalDynamo local) {
        String index = IndexerTables.index(local);
        IndexerStreamHandler handler = handler(local, index);
        assertThat(failures(handler, resource("two-appends-and-noise.json"))).isEmpty();
        assertThat(failures(handler, resource("two-appends-and-noise.json"))).as("a redelivery is acknowledged too").isEmpty();
        assertAccount17Whole(local, index);
    }

    @Test
    void a_lost_record_is_healed_from_the_next_records_tip(LocalDynamo local) {
        String index = IndexerTables.index(local);
        ObjectNode event = resource("two-appends-and-noise.json");
        ((ArrayNode) event.get("Records")).remove(0); // the record of Account-17's first write (Opened, Deposited) never arrives
        assertThat(failures(handler(local, index), event)).isEmpty();
        // the Tip of the next write still held them: their types are read from the event's JSON when the heal asks
        assertAccount17Whole(local, index);
    }

    @Test
    void a_heal_that_meets_an_event_type_that_is_not_a_string_fails_the_batch_at_that_record(LocalDynamo local) {
        String index = IndexerTables.index(local);
        ObjectNode event = resource("two-appends-and-noise.json");
        ((ArrayNode) event.get("Records")).remove(0);
        JsonNode record = event.get("Records").get(0);
        ((ArrayNode) record.at("/dynamodb/NewImage/c/L")).set(0, JSON.createObjectNode().put("N", "7"));
        assertThat(failures(handler(local, index), event)).containsExactly(record.at("/dynamodb/SequenceNumber").asText());
        assertThat(new FeedReadback(local.dynamo(), index, 1).streams()).as("nothing guessed, nothing skipped").isEmpty();
    }

    @Test
    void poison_record_is_reported_as_the_batch_item_failure_and_nothing_after_it_is_written(LocalDynamo local) {
        String index = IndexerTables.index(local);
        IndexerStreamHandler handler = handler(local, index);
        ObjectNode event = resource("poison-in-the-middle.json");
        assertThat(failures(handler, event)).containsExactly("500000000000000000101");
        ((ArrayNode) event.get("Records")).remove(0); // Lambda retries from the reported record: refused the same way
        assertThat(failures(handler, event)).containsExactly("500000000000000000101");
        assertThat(new FeedReadback(local.dynamo(), index, 1).streams()).containsOnlyKeys(StreamName.parse("Cart-3"));
    }

    @Test
    void events_made_of_the_tables_own_stream_records_index_every_event_once(LocalDynamo local) {
        String store = IndexerTables.store(local);
        String index = IndexerTables.index(local);
        CalvingStream stream = CalvingStream.write(local, store);
        String arn = local.dynamo().describeTable(b -> b.tableName(store)).table().latestStreamArn();
        IndexerStreamHandler handler = new IndexerStreamHandler(Indexer.start(local.dynamo(), IndexerConfig.builder(index).build()),
                store);
        // as Lambda would: two batches, the second delivered twice
        assertThat(failures(handler, AwsEventJson.event(stream.firstHalf(), arn))).isEmpty();
        assertThat(failures(handler, AwsEventJson.event(stream.secondHalf(), arn))).isEmpty();
        assertThat(failures(handler, AwsEventJson.event(stream.secondHalf(), arn))).isEmpty();
        stream.assertIndexed(local, index);
    }

    @Test
    void a_record_without_a_sequence_number_is_reported_as_the_failure_after_the_records_before_it_are_in(LocalDynamo local) {
        String index = IndexerTables.index(local);
        // it has no identifier of its own: an empty one, which Lambda retries (bisecting) as a failed batch
        assertThat(failures(handler(local, index), resource("no-sequence-number.json"))).containsExactly("");
        new FeedReadback(local.dynamo(), index, 1).assertExactly(Map.of(StreamName.parse("Account-17"), List.of("Opened", "Deposited")));
    }

    @Test
    void input_that_is_not_a_stream_event_fails_the_invocation_and_writes_nothing(LocalDynamo local) {
        String index = IndexerTables.index(local);
        IndexerStreamHandler handler = handler(local, index);
        byte[] json = "{\"Records\": [{\"eventID\": \"1\", \"dynamodb\": ".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThatThrownBy(() -> handler.handleRequest(new ByteArrayInputStream(json), new ByteArrayOutputStream(), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the Lambda event is not a DynamoDB stream event as Lambda writes it: record 1 (eventID 1):"
                        + " Unexpected end-of-input")
                .hasMessageContaining("Nothing was written");
        assertThat(new FeedReadback(local.dynamo(), index, 1).streams()).isEmpty();
    }

    @Test
    void a_second_records_array_fails_the_invocation_and_writes_nothing(LocalDynamo local) {
        String index = IndexerTables.index(local);
        // a decoy with spans that are not in the store, after the real records: the event is refused whole
        String real = new String(LambdaEventTest.fixture("two-appends-and-noise.json"), java.nio.charset.StandardCharsets.UTF_8).strip();
        String decoy = real.substring(0, real.length() - 1) + ", \"Records\": " + resource("poison-in-the-middle.json").get("Records") + "}";
        assertThatThrownBy(() -> handler(local, index).handleRequest(new ByteArrayInputStream(decoy.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                new ByteArrayOutputStream(), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Duplicate field 'Records'")
                .hasMessageContaining("Nothing was written");
        assertThat(new FeedReadback(local.dynamo(), index, 1).streams()).isEmpty();
    }

    @Test
    void a_record_that_is_not_utf8_fails_the_invocation_naming_it_and_writes_nothing(LocalDynamo local) {
        String index = IndexerTables.index(local);
        byte[] json = LambdaEventTest.fixture("two-appends-and-noise.json");
        String text = new String(json, java.nio.charset.StandardCharsets.ISO_8859_1); // one char a byte: offsets are byte offsets
        int at = text.indexOf("Withdrawn");
        json[at + 1] = (byte) 0xff; // in the second record's event types
        assertThatThrownBy(() -> handler(local, index).handleRequest(new ByteArrayInputStream(json), new ByteArrayOutputStream(), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("record 2 (eventID a8f5f167f44f4964e6c998dee827110c)")
                .hasMessageContaining("Invalid UTF-8").hasMessageContaining("Nothing was written");
        assertThat(new FeedReadback(local.dynamo(), index, 1).streams()).as("not even the first record's span").isEmpty();
    }

    @Test
    void the_store_table_as_index_or_records_of_another_table_are_refused_naming_both(LocalDynamo local) {
        String index = IndexerTables.index(local);
        Map<String, String> env = Map.of("APPENDS_INDEX_TABLE", index, "APPENDS_STORE_TABLE", index,
                "APPENDS_DYNAMODB_ENDPOINT", local.endpoint().toString());
        assertThatThrownBy(() -> new IndexerStreamHandler(LambdaSettings.from(env::get))).isInstanceOf(SameTableException.class)
                .hasMessageContaining("the store table '" + index + "' and the index table '" + index + "' are the same table");
        assertThatThrownBy(() -> new IndexerStreamHandler(LambdaSettings.from(Map.of("APPENDS_INDEX_TABLE", index,
                "APPENDS_DYNAMODB_ENDPOINT", local.endpoint().toString())::get))).hasMessageContaining("APPENDS_STORE_TABLE is not set");

        ObjectNode fromIndex = resource("two-appends-and-noise.json");
        fromIndex.get("Records").forEach(r -> ((ObjectNode) r).put("eventSourceARN", "arn:aws:dynamodb:eu-west-1:123456789012:table/"
                + index + "/stream/2024-11-23T08:00:00.000"));
        IndexerStreamHandler anyTable = new IndexerStreamHandler(Indexer.start(local.dynamo(), IndexerConfig.builder(index).build()), null);
        assertThatThrownBy(() -> failures(anyTable, fromIndex)).isInstanceOf(SameTableException.class).hasMessageContaining(index);
        ObjectNode fromElsewhere = resource("two-appends-and-noise.json");
        fromElsewhere.get("Records").forEach(r -> ((ObjectNode) r).put("eventSourceARN", "arn:aws:dynamodb:eu-west-1:123456789012:table/other/stream/x"));
        assertThatThrownBy(() -> failures(handler(local, index), fromElsewhere)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("table/other/stream/x").hasMessageContaining("'store'");
        ObjectNode endsElsewhere = resource("two-appends-and-noise.json");
        ArrayNode records = (ArrayNode) endsElsewhere.get("Records");
        ((ObjectNode) records.get(records.size() - 1)).put("eventSourceARN", "arn:aws:dynamodb:eu-west-1:123456789012:table/other/stream/y");
        assertThatThrownBy(() -> failures(handler(local, index), endsElsewhere)).isInstanceOf(IllegalStateException.class)
                .as("one mapping's records come from one stream: the first and the last record are checked")
                .hasMessageContaining("table/other/stream/y");
        assertThat(new FeedReadback(local.dynamo(), index, 1).streams()).isEmpty();
    }

    @Test
    void a_failure_identifier_is_written_as_json_whatever_it_holds() throws IOException {
        JsonNode response = JSON.readTree(IndexerStreamHandler.failureJson("a\"b\\c\n"));
        assertThat(response.at("/batchItemFailures/0/itemIdentifier").asText()).isEqualTo("a\"b\\c\n");
    }
}
