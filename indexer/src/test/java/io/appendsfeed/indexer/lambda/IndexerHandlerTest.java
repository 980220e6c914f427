package io.appendsfeed.indexer.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import io.appendsfeed.indexer.FeedReadback;
import io.appendsfeed.indexer.IndexerTables;
import io.appendsfeed.indexer.SameTableException;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalDynamoExtension.class)
class IndexerHandlerTest {

    static IndexerHandler handler(LocalDynamo local, String indexTable) {
        // the fixtures come from the stream of a table named "store"
        return new IndexerHandler(LambdaSettings.from(Map.of("APPENDS_INDEX_TABLE", indexTable, "APPENDS_STORE_TABLE", "store",
                "APPENDS_DYNAMODB_ENDPOINT", local.endpoint().toString())::get));
    }

    /** The fixture's three events of Account-17, each once, in order: all the feed holds. */
    private static void assertAccount17Whole(LocalDynamo local, String index) {
        new FeedReadback(local.dynamo(), index, 1).assertExactly(Map.of(
                StreamName.parse("Account-17"), List.of("Opened", "Deposited", "Withdrawn")));
    }

    static List<String> failures(StreamsEventResponse r) {
        return r.getBatchItemFailures().stream().map(StreamsEventResponse.BatchItemFailure::getItemIdentifier).toList();
    }

    @Test
    void aws_shaped_batch_is_ingested_and_acknowledged_whole(LocalDynamo local) {
        String index = IndexerTables.index(local);
        IndexerHandler handler = handler(local, index);
        StreamsEventResponse r = handler.handleRequest(LambdaEventJson.resource("two-appends-and-noise.json"), null);
        assertThat(failures(r)).isEmpty();
        assertThat(failures(handler.handleRequest(LambdaEventJson.resource("two-appends-and-noise.json"), null)))
                .as("a redelivery is acknowledged too").isEmpty();
        assertAccount17Whole(local, index);
    }

    @Test
    void a_large_batchs_images_are_released_from_the_event_once_read_and_nothing_else_is_changed(LocalDynamo local) {
        String index = IndexerTables.index(local);
        IndexerHandler handler = handler(local, index);
        DynamodbEvent small = LambdaEventJson.resource("two-appends-and-noise.json");
        assertThat(failures(handler.handleRequest(small, null))).isEmpty();
        assertThat(small.getRecords()).as("a small batch is left as it is").anySatisfy(r -> assertThat(r.getDynamodb().getNewImage()).isNotNull());

        DynamodbEvent event = LambdaEventJson.resource("two-appends-and-noise.json");
        event.getRecords().forEach(r -> r.getDynamodb().setSizeBytes(LambdaRecords.RELEASE_BYTES)); // as if each were that large
        List<String> sequenceNumbers = event.getRecords().stream().map(r -> r.getDynamodb().getSequenceNumber()).toList();
        assertThat(event.getRecords()).anySatisfy(r -> assertThat(r.getDynamodb().getNewImage()).isNotNull());

        assertThat(failures(handler.handleRequest(event, null))).isEmpty();

        assertThat(event.getRecords()).allSatisfy(r -> {
            assertThat(r.getDynamodb().getNewImage()).isNull();
            assertThat(r.getDynamodb().getKeys()).isNotEmpty();
        });
        assertThat(event.getRecords().stream().map(r -> r.getDynamodb().getSequenceNumber()).toList()).isEqualTo(sequenceNumbers);
        assertAccount17Whole(local, index);
    }

    @Test
    void a_lost_record_is_healed_from_the_next_records_tip_in_a_released_batch(LocalDynamo local) {
        String index = IndexerTables.index(local);
        IndexerHandler handler = handler(local, index);
        DynamodbEvent event = LambdaEventJson.resource("two-appends-and-noise.json");
        event.getRecords().remove(0); // the record of Account-17's first write (Opened, Deposited) never arrives
        event.getRecords().forEach(r -> r.getDynamodb().setSizeBytes(LambdaRecords.RELEASE_BYTES));

        assertThat(failures(handler.handleRequest(event, null))).isEmpty();

        // the Tip of the next write still held them: its types are read then, after the images were released
        assertAccount17Whole(local, index);
    }

    @Test
    void a_heal_that_meets_an_event_type_that_is_not_a_string_fails_the_batch_at_that_record(LocalDynamo local) {
        String index = IndexerTables.index(local);
        IndexerHandler handler = handler(local, index);
        DynamodbEvent event = LambdaEventJson.resource("two-appends-and-noise.json");
        event.getRecords().remove(0); // the first write's record is lost: its events must be healed from the next Tip
        event.getRecords().get(0).getDynamodb().getNewImage().get("c").getL()
                .set(0, new com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue().withN("7"));

        assertThat(failures(handler.handleRequest(event, null))).containsExactly("400000000000000499661");
        assertThat(new FeedReadback(local.dynamo(), index, 1).streams()).as("nothing guessed, nothing skipped").isEmpty();
    }

    @Test
    void poison_record_is_reported_as_the_batch_item_failure_and_nothing_after_it_is_written(LocalDynamo local) {
        String index = IndexerTables.index(local);
        IndexerHandler handler = handler(local, index);
        DynamodbEvent event = LambdaEventJson.resource("poison-in-the-middle.json");
        assertThat(failures(handler.handleRequest(event, null))).containsExactly("500000000000000000101");
        // Lambda retries from the reported record: it fails the same way, without writing, until the
        // event source mapping's retry limit sends it to the on-failure destination
        DynamodbEvent retry = new DynamodbEvent();
        retry.setRecords(event.getRecords().subList(1, 3));
        assertThat(failures(handler.handleRequest(retry, null))).containsExactly("500000000000000000101");
        assertThat(new FeedReadback(local.dynamo(), index, 1).streams()).containsOnlyKeys(StreamName.parse("Cart-3"));
    }

    @Test
    void events_built_from_the_tables_own_stream_records_index_every_event_once(LocalDynamo local) {
        String index = IndexerTables.index(local);
        CalvingStream stream = CalvingStream.write(local, IndexerTables.store(local));
        IndexerHandler handler = handler(local, index);
        // as Lambda would: two batches, the second delivered twice
        assertThat(failures(handler.handleRequest(LambdaEvents.of(stream.firstHalf()), null))).isEmpty();
        assertThat(failures(handler.handleRequest(LambdaEvents.of(stream.secondHalf()), null))).isEmpty();
        assertThat(failures(handler.handleRequest(LambdaEvents.of(stream.secondHalf()), null))).isEmpty();
        stream.assertIndexed(local, index);
    }

    @Test
    void a_record_without_a_sequence_number_is_reported_as_the_failure_after_the_records_before_it_are_in(LocalDynamo local) {
        String index = IndexerTables.index(local);
        IndexerHandler handler = handler(local, index);
        StreamsEventResponse r = handler.handleRequest(LambdaEventJson.resource("no-sequence-number.json"), null);
        // it has no identifier of its own: an empty one, which Lambda retries (bisecting) as a failed batch
        assertThat(failures(r)).containsExactly("");
        new FeedReadback(local.dynamo(), index, 1).assertExactly(Map.of(StreamName.parse("Account-17"), List.of("Opened", "Deposited")));
    }

    @Test
    void the_store_table_as_index_or_records_of_another_table_are_refused_naming_both(LocalDynamo local) {
        String index = IndexerTables.index(local);
        Map<String, String> env = Map.of("APPENDS_INDEX_TABLE", index, "APPENDS_STORE_TABLE", index,
                "APPENDS_DYNAMODB_ENDPOINT", local.endpoint().toString());
        assertThatThrownBy(() -> new IndexerHandler(LambdaSettings.from(env::get))).isInstanceOf(SameTableException.class)
                .hasMessageContaining("the store table '" + index + "' and the index table '" + index + "' are the same table");
        assertThatThrownBy(() -> new IndexerHandler(LambdaSettings.from(Map.of("APPENDS_INDEX_TABLE", index,
                "APPENDS_DYNAMODB_ENDPOINT", local.endpoint().toString())::get))).hasMessageContaining("APPENDS_STORE_TABLE is not set");

        // mapped to the index table's own stream, or to another table's: refused before anything is written
        DynamodbEvent fromIndex = LambdaEventJson.resource("two-appends-and-noise.json");
        fromIndex.getRecords().forEach(rec -> rec.setEventSourceARN("arn:aws:dynamodb:eu-west-1:123456789012:table/" + index
                + "/stream/2024-11-23T08:00:00.000"));
        assertThatThrownBy(() -> new IndexerHandler(io.appendsfeed.indexer.Indexer.start(local.dynamo(),
                io.appendsfeed.indexer.IndexerConfig.builder(index).build())).handleRequest(fromIndex, null))
                .isInstanceOf(SameTableException.class).hasMessageContaining(index);
        DynamodbEvent fromElsewhere = LambdaEventJson.resource("two-appends-and-noise.json");
        fromElsewhere.getRecords().forEach(rec -> rec.setEventSourceARN("arn:aws:dynamodb:eu-west-1:123456789012:table/other/stream/x"));
        assertThatThrownBy(() -> handler(local, index).handleRequest(fromElsewhere, null)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("table/other/stream/x").hasMessageContaining("'store'");
        DynamodbEvent endsElsewhere = LambdaEventJson.resource("two-appends-and-noise.json");
        endsElsewhere.getRecords().get(endsElsewhere.getRecords().size() - 1)
                .setEventSourceARN("arn:aws:dynamodb:eu-west-1:123456789012:table/other/stream/y");
        assertThatThrownBy(() -> handler(local, index).handleRequest(endsElsewhere, null)).isInstanceOf(IllegalStateException.class)
                .as("one mapping's records come from one stream: the first and the last record are checked")
                .hasMessageContaining("table/other/stream/y");
        assertThat(new FeedReadback(local.dynamo(), index, 1).streams()).isEmpty();
    }
}
