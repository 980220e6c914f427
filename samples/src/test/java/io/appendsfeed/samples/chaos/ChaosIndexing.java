package io.appendsfeed.samples.chaos;

import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.FeedGapException;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A source delivering the store table's real Streams records to two competing indexers through
 * faulty clients, the way sources misbehave: batches of any size, redeliveries of ranges already
 * acknowledged, two indexers ingesting overlapping batches at the same time, and crashes (an
 * indexer replaced by a cold one). It acknowledges only up to {@link BatchOutcome#firstNotIngested()}.
 */
final class ChaosIndexing {

    private static final int STEPS = 12;
    private static final int FINAL_ATTEMPTS = 10;

    private final DynamoDbClient faulty;
    private final IndexerConfig config;
    private final SplittableRandom random;
    private final Indexer[] indexers = new Indexer[2];
    int batches;
    int crashes;
    int races;

    ChaosIndexing(DynamoDbClient faulty, IndexerConfig config, long seed) {
        this.faulty = faulty;
        this.config = config;
        this.random = new SplittableRandom(seed);
    }

    /** Runs the faulty steps; returns how many records are acknowledged. */
    int run(List<ChangeRecord> records) {
        Map<String, Integer> at = positions(records);
        int acked = 0;
        for (int step = 0; step < STEPS && acked < records.size(); step++) {
            int which = random.nextInt(2);
            int count = 1 + random.nextInt(Math.max(1, records.size() / 2));
            switch (random.nextInt(5)) {
                case 0 -> {
                    int from = Math.max(0, acked - 1 - random.nextInt(Math.max(1, acked)));
                    acked = Math.max(acked, deliver(which, records, from, from + count, at));
                }
                case 1 -> {
                    races++;
                    int from = Math.max(0, acked - random.nextInt(3));
                    int a = acked;
                    CompletableFuture<Integer> other = CompletableFuture.supplyAsync(() -> deliver(1 - which, records, from, from + count + 1, at));
                    int mine = deliver(which, records, a, a + count, at);
                    acked = Math.max(acked, Math.max(mine, other.join()));
                }
                case 2 -> {
                    crashes++;
                    indexers[which] = null; // the process died; a cold one takes over on next use
                    acked = Math.max(acked, deliver(which, records, acked, acked + count, at));
                }
                default -> acked = Math.max(acked, deliver(which, records, acked, acked + count, at));
            }
        }
        return acked;
    }

    /** Faults off: a cold indexer delivers the rest. Returns how many records are acknowledged. */
    int finish(List<ChangeRecord> records, int acked) {
        Map<String, Integer> at = positions(records);
        indexers[0] = null;
        for (int k = 0; k < FINAL_ATTEMPTS && acked < records.size(); k++) {
            acked = Math.max(acked, deliver(0, records, acked, records.size(), at));
        }
        return acked;
    }

    /** Ingests {@code [from, to)}; returns the end of what is durably in (from when nothing is). */
    private int deliver(int which, List<ChangeRecord> records, int from, int to, Map<String, Integer> at) {
        int end = Math.min(to, records.size());
        if (from >= end) {
            return from;
        }
        Indexer indexer = indexer(which);
        if (indexer == null) {
            return from;
        }
        batches++;
        BatchOutcome o = indexer.ingest(records.subList(from, end));
        o.errors().stream().filter(e -> e instanceof FeedGapException).findFirst().ifPresent(e -> {
            throw new AssertionError("the source delivered in order, yet the indexer saw a gap", e);
        });
        if (o.rejected() != null) {
            throw new AssertionError("a record of the store's own stream was rejected: " + o.rejected());
        }
        return o.complete() ? end : at.get(o.firstNotIngested());
    }

    private synchronized Indexer indexer(int which) {
        if (indexers[which] == null) {
            try {
                indexers[which] = Indexer.start(faulty, config);
            } catch (RuntimeException e) {
                return null; // starting failed under faults: this delivery does not happen
            }
        }
        return indexers[which];
    }

    private static Map<String, Integer> positions(List<ChangeRecord> records) {
        Map<String, Integer> at = new HashMap<>();
        for (int k = 0; k < records.size(); k++) {
            at.put(records.get(k).sequenceNumber(), k);
        }
        return at;
    }
}
