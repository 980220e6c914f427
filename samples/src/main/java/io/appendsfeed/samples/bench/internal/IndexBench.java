package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.feed.EpochEvent;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoredEvent;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * Scenario 1: the indexer core fed the store table's real Streams records, read beforehand with
 * {@code GetRecords} at a batch limit, so that the timing covers conversion, parsing and ingestion
 * and nothing of the source.
 */
public final class IndexBench {

    /**
     * One batch size.
     *
     * @param writeUnitsPerEvent WCU the index table was charged per indexed event
     * @param jsonBytes the {@code Ingested} bodies' JSON bytes (what the feed's format holds)
     * @param storedBytes the same bodies as stored (deflated)
     * @param jsonKbPerEvent JSON bytes / 1 KB, per event
     * @param storedKbPerEvent stored bytes / 1 KB, per event: the floor for this data
     * @param floorWriteUnitsPerEvent the least these writes can cost: 1 WCU per started KB of each stored body
     * @param overFloor writeUnitsPerEvent / floorWriteUnitsPerEvent
     */
    public record Run(int batchLimit, long records, int batches, long indexedEvents, int epochs, double seconds,
                      double eventsPerSecond, double writeUnits, double readUnits, double writeUnitsPerEvent,
                      long ingestedWrites, long jsonBytes, long storedBytes, double jsonKbPerEvent, double storedKbPerEvent,
                      double floorWriteUnitsPerEvent, double overFloor,
                      String indexTable) {}

    private IndexBench() {
    }

    /** @throws IllegalStateException when a batch is not fully ingested or the feed does not hold every event written */
    public static Run run(LocalDynamo local, String storeTable, long eventsWritten, int batchLimit, String indexTable) {
        StreamsScan.Result scan = StreamsScan.batches(local.dynamo(), local.streams(), storeTable, batchLimit);
        local.indexTable(indexTable);
        CapacityTally tally = new CapacityTally();
        Indexer indexer = Indexer.start(local.dynamo(), IndexerConfig.builder(indexTable).meter(tally).build());
        double wcu0 = tally.writeUnits();
        double rcu0 = tally.readUnits();
        long indexed = 0;
        long start = System.nanoTime();
        for (List<Record> batch : scan.batches()) {
            BatchOutcome o = indexer.ingest(batch.stream().map(ChangeRecord::from).toList());
            if (!o.complete()) {
                throw new IllegalStateException("batch not ingested from " + o.firstNotIngested() + ": "
                        + (o.rejected() != null ? o.rejected() : o.errors()));
            }
            indexed += o.acceptedEvents();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (indexed != eventsWritten) {
            throw new IllegalStateException("indexed " + indexed + " events of " + eventsWritten + " written");
        }
        double wcu = tally.writeUnits() - wcu0;
        EpochContent content = EpochContent.read(local.dynamo(), indexTable);
        long json = jsonBytes(local, indexTable, content.epochs());
        double perEvent = wcu / indexed;
        double floor = (double) content.floorWriteUnits() / indexed;
        return new Run(batchLimit, scan.records(), scan.batches().size(), indexed, content.epochs(), seconds,
                indexed / seconds, wcu, tally.readUnits() - rcu0, perEvent, content.ingestedWrites(),
                json, content.storedBytes(), json / 1024.0 / indexed,
                content.storedBytes() / 1024.0 / indexed, floor, perEvent / floor, indexTable);
    }

    private static long jsonBytes(LocalDynamo local, String indexTable, int epochs) {
        StoreClient index = new StoreClient(local.dynamo(), StoreConfig.builder(indexTable).reservedStreams(true).build());
        long bytes = 0;
        for (int e = 0; e < epochs; e++) {
            for (StoredEvent x : index.readAll(AppendsEpoch.stream(PartitionId.ZERO, new EpochId(e)), Read.forward(0))) {
                if (EpochEvent.INGESTED.equals(x.type())) {
                    bytes += x.data().length;
                }
            }
        }
        return bytes;
    }
}
