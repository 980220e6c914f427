package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.indexer.BatchOutcome.PartitionOutcome;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.model.DynamoClients;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.CRC32;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Contention: N indexers, each with its own {@link Indexer} and client, ingesting into ONE partition at once, as the
 * Lambdas of N shards would: the records split into N shards by stream, cut into batches of {@value #BATCH_SIZE}, back
 * to back; a batch not ingested whole is delivered again from its first record not in, as Lambda retries.
 */
public final class ContentionBench {

    /** One concurrency level; {@code conditionFailures} are the conflicts as the store clients heard them. */
    public record Run(int indexers, int batches, long records, double seconds, double recordsPerSecond,
                      long conflicts, double conflictsPerBatch, long mostConflicts, long conditionFailures, long redeliveries,
                      double writeUnitsPerEvent, double readUnitsPerBatch, List<String> problems) {}

    public record Result(long events, int streams, int batchSize, long backoffMs, double roundTripMs, List<Run> runs) {}

    public static final int BATCH_SIZE = 100;
    /** A batch that keeps failing is a bug, not contention. */
    private static final int MAX_DELIVERIES = 1_000;

    private ContentionBench() {
    }

    /** @throws IllegalStateException when a batch cannot be ingested */
    public static Result run(LocalDynamo local, long events, int streams, List<Integer> levels, double roundTripMs) {
        String store = "contention-store";
        local.writeWorkload(store, events, streams);
        List<ChangeRecord> records = new ArrayList<>();
        LambdaEventFiles.scan(local.dynamo(), local.streams(), store, (shard, page) -> page.forEach(r -> records.add(ChangeRecord.from(r))), shard -> { });
        StoreFacts facts = StoreFacts.of(local.dynamo(), store);
        List<Run> runs = new ArrayList<>();
        for (int n : levels) {
            runs.add(level(local, records, n, facts));
        }
        return new Result(events, streams, BATCH_SIZE, IndexerConfig.DEFAULT_CONFLICT_BACKOFF_MILLIS, roundTripMs, runs);
    }

    private static Run level(LocalDynamo local, List<ChangeRecord> records, int n, StoreFacts facts) {
        String index = local.indexTable("contention-" + n);
        List<List<List<ChangeRecord>>> shards = shards(records, n);
        Meter meter = new Meter();
        List<DynamoDbClient> clients = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Callable<long[]>> tasks = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                // a client of its own each, as DynamoClients builds a Lambda's: its calls go as a Lambda's go
                DynamoDbClient c = DynamoClients.dynamoDb(DynamoClients.Settings.local(local.measured()));
                clients.add(c);
                Indexer indexer = Indexer.start(c, IndexerConfig.builder(index).meter(meter).build());
                List<List<ChangeRecord>> batches = shards.get(i);
                tasks.add(() -> ingestAll(indexer, batches));
            }
            meter.take(); // starting the index is not the contention
            long start = System.nanoTime();
            long[] sum = new long[3];
            for (Future<long[]> f : pool.invokeAll(tasks)) {
                long[] r = f.get();
                sum[0] += r[0];
                sum[1] += r[1];
                sum[2] = Math.max(sum[2], r[2]);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            Meter.Totals t = meter.take();
            int batches = shards.stream().mapToInt(List::size).sum();
            List<String> problems = facts.check(local.dynamo(), index).problems();
            return new Run(n, batches, records.size(), seconds, records.size() / seconds, sum[0], (double) sum[0] / batches,
                    sum[2], t.refused(), sum[1], t.writeUnits() / facts.events(), t.readUnits() / batches, problems);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while indexing", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("contention, " + n + " indexers: " + e.getCause().getMessage(), e.getCause());
        } finally {
            pool.shutdownNow();
            clients.forEach(DynamoDbClient::close);
        }
    }

    /** @return {conflicts, redeliveries, the most conflicts of one delivery} */
    private static long[] ingestAll(Indexer indexer, List<List<ChangeRecord>> batches) {
        long conflicts = 0;
        long redeliveries = 0;
        long most = 0;
        for (List<ChangeRecord> batch : batches) {
            List<ChangeRecord> left = batch;
            for (int delivery = 1; ; delivery++) {
                BatchOutcome o = indexer.ingest(left, null);
                long these = o.partitions().stream().mapToLong(PartitionOutcome::conflicts).sum();
                conflicts += these;
                most = Math.max(most, these);
                if (o.complete()) {
                    break;
                }
                if (o.rejected() != null || delivery >= MAX_DELIVERIES) {
                    throw new IllegalStateException("batch not ingested after " + delivery + " deliveries, from "
                            + o.firstNotIngested() + ": " + (o.rejected() != null ? o.rejected() : o.errors()));
                }
                redeliveries++;
                int from = 0;
                while (!left.get(from).sequenceNumber().equals(o.firstNotIngested())) {
                    from++; // the indexer names a record of the batch; past the end is a bug that fails here
                }
                left = left.subList(from, left.size());
            }
        }
        return new long[] {conflicts, redeliveries, most};
    }

    /** Records by stream into {@code n} shards (CRC-32 of the stream name), each cut into batches, order kept. */
    static List<List<List<ChangeRecord>>> shards(List<ChangeRecord> records, int n) {
        List<List<ChangeRecord>> byShard = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byShard.add(new ArrayList<>());
        }
        for (ChangeRecord r : records) {
            CRC32 crc = new CRC32();
            crc.update(r.keys().get("p").s().getBytes(StandardCharsets.UTF_8));
            byShard.get((int) Math.floorMod(crc.getValue(), (long) n)).add(r);
        }
        List<List<List<ChangeRecord>>> out = new ArrayList<>();
        for (List<ChangeRecord> shard : byShard) {
            List<List<ChangeRecord>> batches = new ArrayList<>();
            for (int from = 0; from < shard.size(); from += BATCH_SIZE) {
                batches.add(List.copyOf(shard.subList(from, Math.min(shard.size(), from + BATCH_SIZE))));
            }
            out.add(batches);
        }
        return out;
    }
}
