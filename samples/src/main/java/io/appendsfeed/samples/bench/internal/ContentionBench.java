package io.appendsfeed.samples.bench.internal;

import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.PartitionOutcome;
import io.appendsfeed.model.DynamoClients;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.CRC32;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Contention: N indexers ingesting into ONE partition at once, as the Lambdas of N shards would.
 * The store's records are split into N "shards" by stream (each stream's records stay in order in
 * one shard, as DynamoDB Streams keeps an item's changes in one shard) and each shard is cut into
 * batches; N threads, each with its own {@link Indexer} and its own client, ingest their shard's
 * batches in order. A batch not ingested whole is delivered again from its first record not in, as
 * Lambda retries. Sustained rate = records ÷ wall time from the first batch to the last.
 *
 * <p>With a round trip added ({@link LatencyProxy}), the indexers wait on the network as Lambdas wait on
 * DynamoDB in AWS; without one, on a machine of two processors, the indexers and DynamoDB Local share
 * them and the processor time a batch costs sets the rate.
 */
public final class ContentionBench {

    /**
     * One concurrency level.
     *
     * @param conflicts conditional writes that lost to another indexer, as the indexers report them
     * @param conditionFailures writes refused by their condition, as the indexers' store clients heard them
     * @param redeliveries batches delivered again because they were not ingested whole
     * @param cpuMsPerBatch CPU time of this process (the indexers, and DynamoDB Local when it runs here) per
     *                      batch while they ran: what the work cost, whatever else shares the processors
     * @param problems how the index differs from the store; empty when every event is in it once, in order
     * @param roundTripMs milliseconds the indexers' calls waited on the network on top of DynamoDB Local's answer
     * @param mostConflicts the most conflicts one delivery of a batch met: how long the unluckiest writer
     *                      waited its turn ({@code maxConflictRetries} more, and the batch is redelivered)
     */
    public record Run(int indexers, double roundTripMs, int batchSize, int batches, long records, long events, double seconds,
                      double recordsPerSecond, long conflicts, double conflictsPerBatch, long conditionFailures,
                      long redeliveries, long mostConflicts, double writeUnitsPerEvent, double readUnitsPerBatch, double cpuMsPerBatch,
                      List<String> problems) {
        public Run {
            problems = List.copyOf(problems);
        }
    }

    /** How the records were made. */
    public record Result(long events, int streams, long records, long backoffMs, List<Run> runs) {
        public Result {
            runs = List.copyOf(runs);
        }
    }

    /** A batch that keeps failing is a bug, not contention. */
    private static final int MAX_DELIVERIES = 1_000;

    private ContentionBench() {
    }

    /** @throws IllegalStateException when a batch cannot be ingested, or the index is not the store */
    public static Result run(LocalDynamo local, long events, int streams, int batchSize, List<Integer> indexers,
                             List<Double> roundTrips, Duration backoff) {
        String store = local.storeTable("contention-store");
        Workload.write(local.dynamo(), store, events, streams);
        List<ChangeRecord> records = new ArrayList<>();
        StreamsScan.scan(local.dynamo(), local.streams(), store, 1000, page -> page.forEach(r -> records.add(ChangeRecord.from(r))));
        StoreFacts facts = StoreFacts.of(local.dynamo(), store, false);
        List<Run> runs = new ArrayList<>();
        for (double rtt : roundTrips) {
            for (int n : indexers) {
                String name = "contention-index-" + n + (rtt > 0 ? "-rtt-" + Math.round(rtt * 1000) + "us" : "");
                runs.add(level(local, records, n, batchSize, facts, name, rtt, backoff));
            }
        }
        return new Result(events, streams, records.size(), backoff.toMillis(), runs);
    }

    /**
     * One level into a fresh index table of that name.
     *
     * @param roundTripMs added to every call of the indexers (over HTTP only); 0 for none
     * @param backoff the indexers' {@link IndexerConfig#conflictBackoff()}
     */
    static Run level(LocalDynamo local, List<ChangeRecord> records, int n, int batchSize, StoreFacts facts, String indexName,
                     double roundTripMs, Duration backoff) {
        if (roundTripMs > 0 && local.transport() != LocalDynamo.Transport.HTTP) {
            throw new IllegalArgumentException("a round trip is added to HTTP calls only; this DynamoDB Local is " + local.transport());
        }
        String index = local.indexTable(indexName);
        LatencyProxy proxy = roundTripMs > 0 ? LatencyProxy.to(local.endpoint(), roundTripMs) : null;
        List<List<List<ChangeRecord>>> shards = shards(records, n, batchSize);
        List<CapacityTally> tallies = new ArrayList<>();
        List<DynamoDbClient> clients = new ArrayList<>();
        List<Indexer> indexers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            CapacityTally tally = new CapacityTally();
            tallies.add(tally);
            // over HTTP each indexer has a client of its own, as DynamoClients builds it, as a Lambda's is: so its
            // writes go the way they go in a Lambda, metered by the store client's meter
            DynamoDbClient c = local.transport() == LocalDynamo.Transport.HTTP
                    ? DynamoClients.dynamoDb(DynamoClients.Settings.local(proxy != null ? proxy.endpoint() : local.endpoint()))
                    : local.dynamo();
            if (c != local.dynamo()) {
                clients.add(c);
            }
            // one starts the index; the others find it
            indexers.add(Indexer.start(c, IndexerConfig.builder(index).meter(tally).conflictBackoff(backoff).build()));
        }
        double wcu0 = tallies.stream().mapToDouble(CapacityTally::writeUnits).sum();
        double rcu0 = tallies.stream().mapToDouble(CapacityTally::readUnits).sum();
        long failures0 = tallies.stream().mapToLong(CapacityTally::refused).sum();
        ExecutorService pool = Executors.newFixedThreadPool(n);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<long[]>> done = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Indexer indexer = indexers.get(i);
            List<List<ChangeRecord>> batches = shards.get(i);
            done.add(pool.submit(() -> {
                go.await();
                return ingestAll(indexer, batches, batchSize);
            }));
        }
        long cpu0 = cpuNanos();
        long start = System.nanoTime();
        go.countDown();
        long conflicts = 0;
        long redeliveries = 0;
        long most = 0;
        try {
            for (Future<long[]> f : done) {
                long[] r = f.get();
                conflicts += r[0];
                redeliveries += r[1];
                most = Math.max(most, r[2]);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while indexing", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("contention, " + n + " indexers: " + e.getCause().getMessage(), e.getCause());
        } finally {
            pool.shutdownNow();
            clients.forEach(DynamoDbClient::close);
            if (proxy != null) {
                proxy.close();
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpuMs = (cpuNanos() - cpu0) / 1e6;
        int batches = shards.stream().mapToInt(List::size).sum();
        IndexCheck check = IndexCheck.of(local.dynamo(), index, facts.versions());
        double wcu = tallies.stream().mapToDouble(CapacityTally::writeUnits).sum() - wcu0;
        double rcu = tallies.stream().mapToDouble(CapacityTally::readUnits).sum() - rcu0;
        long failures = tallies.stream().mapToLong(CapacityTally::refused).sum() - failures0;
        return new Run(n, roundTripMs, batchSize, batches, records.size(), facts.events(), seconds, records.size() / seconds,
                conflicts, (double) conflicts / batches, failures, redeliveries, most, wcu / facts.events(), rcu / batches,
                cpuMs / batches, check.problems());
    }

    /** CPU time of the whole process so far, or 0 where the JVM cannot tell. */
    private static long cpuNanos() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? Math.max(0, os.getProcessCpuTime()) : 0;
    }

    /**
     * Each batch as a Lambda of the deploy template ingests it: the calf, then the epoch's Tip.
     *
     * @return {conflicts, redeliveries, the most conflicts of one delivery}
     */
    private static long[] ingestAll(Indexer indexer, List<List<ChangeRecord>> batches, int batchSize) {
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
                left = from(left, o.firstNotIngested());
            }
        }
        return new long[] {conflicts, redeliveries, most};
    }

    private static List<ChangeRecord> from(List<ChangeRecord> batch, String sequenceNumber) {
        for (int k = 0; k < batch.size(); k++) {
            if (batch.get(k).sequenceNumber().equals(sequenceNumber)) {
                return batch.subList(k, batch.size());
            }
        }
        throw new IllegalStateException("the indexer named " + sequenceNumber + " as first not ingested; it is not in the batch");
    }

    /** Records by stream into {@code n} shards (CRC-32 of the stream name), each cut into batches, order kept. */
    static List<List<List<ChangeRecord>>> shards(List<ChangeRecord> records, int n, int batchSize) {
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
            for (int from = 0; from < shard.size(); from += batchSize) {
                batches.add(List.copyOf(shard.subList(from, Math.min(shard.size(), from + batchSize))));
            }
            out.add(batches);
        }
        return out;
    }
}
