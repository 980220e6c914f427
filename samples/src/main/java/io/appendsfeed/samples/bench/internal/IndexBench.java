package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
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
     * @param bytesFloorPerEvent the brief's floor: bytes of the {@code Ingested} bodies / 1 KB, per event
     * @param floorWriteUnitsPerEvent the least the same writes can cost: 1 WCU per started KB of each {@code Ingested}
     * @param overFloor writeUnitsPerEvent / floorWriteUnitsPerEvent
     */
    public record Run(int batchLimit, long records, int batches, long indexedEvents, int epochs, double seconds,
                      double eventsPerSecond, double writeUnits, double readUnits, double writeUnitsPerEvent,
                      long ingestedWrites, long ingestedBytes, double bytesFloorPerEvent, double floorWriteUnitsPerEvent, double overFloor,
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
        double perEvent = wcu / indexed;
        double floor = (double) content.floorWriteUnits() / indexed;
        return new Run(batchLimit, scan.records(), scan.batches().size(), indexed, content.epochs(), seconds,
                indexed / seconds, wcu, tally.readUnits() - rcu0, perEvent, content.ingestedWrites(),
                content.ingestedBytes(), content.ingestedBytes() / 1024.0 / indexed, floor, perEvent / floor, indexTable);
    }
}
