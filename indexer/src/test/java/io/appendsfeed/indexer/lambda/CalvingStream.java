package io.appendsfeed.indexer.lambda;

import io.appendsfeed.indexer.FeedReadback;
import io.appendsfeed.indexer.StreamRecords;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.testing.LocalDynamo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * Test support for both Lambda handlers: one stream appended to 12 times in a store whose Tips hold
 * 256 bytes, so that it calves several times and its Streams records include calves.
 *
 * @param records the store table's Streams records, in order
 * @param types the stream's event types, in order: what the feed must hold
 */
record CalvingStream(List<Record> records, List<String> types) {

    static final StreamName STREAM = StreamName.parse("Account-1");

    static CalvingStream write(LocalDynamo local, String store) {
        StoreClient client = new StoreClient(local.dynamo(), StoreConfig.builder(store).tipMaxBytes(256).build());
        List<String> types = new ArrayList<>();
        for (int k = 0; k < 12; k++) {
            client.append(STREAM, Expected.version(k), List.of(EventData.json("Deposited" + k, "{\"amount\":" + k + "}")));
            types.add("Deposited" + k);
        }
        return new CalvingStream(StreamRecords.all(local.dynamo(), local.streams(), store), types);
    }

    /** The first half of the records, and the rest: two batches, as Lambda would deliver them. */
    List<Record> firstHalf() {
        return records.subList(0, records.size() / 2);
    }

    List<Record> secondHalf() {
        return records.subList(records.size() / 2, records.size());
    }

    /** The index holds the stream's events, each once, in order, and nothing else. */
    void assertIndexed(LocalDynamo local, String index) {
        new FeedReadback(local.dynamo(), index, 1).assertExactly(Map.of(STREAM, types));
    }
}
