package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.model.feed.EpochEvent;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoredEvent;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What partition 0's epochs of an index hold, read back after a run: how many {@code Ingested}
 * were written and their body bytes, and the write floor those bodies imply (1 WCU per started KB of
 * each, the least any write of that body can cost).
 */
public record EpochContent(int epochs, long ingestedWrites, long ingestedBytes, long floorWriteUnits) {

    /** Reads epochs 0.. of partition 0 until one is empty. */
    public static EpochContent read(DynamoDbClient dynamo, String indexTable) {
        StoreClient index = new StoreClient(dynamo, StoreConfig.builder(indexTable).reservedStreams(true).build());
        int epochs = 0;
        long writes = 0;
        long bytes = 0;
        long floor = 0;
        while (true) {
            var events = index.readAll(FeedStreams.epoch(new PartitionId(0), new EpochId(epochs)), Read.forward(0));
            if (events.isEmpty()) {
                break;
            }
            epochs++;
            for (StoredEvent e : events) {
                if (EpochEvent.INGESTED.equals(e.type())) {
                    writes++;
                    bytes += e.data().length;
                    floor += (e.data().length + 1023) / 1024;
                }
            }
        }
        return new EpochContent(epochs, writes, bytes, floor);
    }
}
