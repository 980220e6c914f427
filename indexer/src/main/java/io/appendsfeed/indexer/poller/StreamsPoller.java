package io.appendsfeed.indexer.poller;

import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.FeedGapException;
import io.appendsfeed.model.feed.FeedFormatException;
import io.appendsfeed.model.store.ItemTooLargeException;
import io.appendsfeed.model.store.StoreFormatException;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.poller.internal.RejectedLog;
import io.appendsfeed.indexer.poller.internal.ShardPositions;
import io.appendsfeed.indexer.poller.internal.ShardPositions.Position;
import io.appendsfeed.indexer.poller.internal.ShardReader;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Reads a store table's DynamoDB stream with the Streams API and feeds it to an {@link Indexer}: the
 * small, single-instance source used on DynamoDB Local (the demo, the tests). Follows shard lineage
 * (a child only after its parent is drained), keeps its position per shard in the index table
 * (conditional writes: a second poller is detected), resumes from it after a restart, and
 * acknowledges only what the indexer durably ingested. Run it with {@link #start()} or drive it
 * with {@link #pollOnce()}; {@link #close()} stops it after the batch in hand.
 */
public final class StreamsPoller implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StreamsPoller.class);

    private final Indexer indexer;
    private final PollerConfig config;
    private final ShardReader reader;
    private final ShardPositions positions;
    private final RejectedLog rejectedLog;
    private final Map<String, ShardStoppedException> stopped = new ConcurrentHashMap<>();
    private final Map<String, Instant> backoffUntil = new HashMap<>();
    private final Object wake = new Object();
    private volatile boolean running;
    private Thread thread;

    /**
     * @throws IllegalArgumentException when the store table has no stream
     * @throws RuntimeException from DynamoDB, e.g. when a table does not exist
     */
    public StreamsPoller(DynamoDbClient dynamo, DynamoDbStreamsClient streams, Indexer indexer, PollerConfig config) {
        this.indexer = indexer;
        this.config = config;
        StoreClient index = new StoreClient(dynamo, StoreConfig.builder(indexer.config().indexTable())
                .reservedStreams(true).meter(indexer.config().meter()).build());
        this.reader = new ShardReader(dynamo, streams, config);
        this.positions = new ShardPositions(index, config.storeTable());
        this.rejectedLog = new RejectedLog(index);
    }

    /** Polls on a background thread until {@link #close()}. */
    public synchronized StreamsPoller start() {
        if (thread == null) {
            running = true;
            thread = new Thread(this::run, "appendsfeed-poller-" + config.storeTable());
            thread.setDaemon(true);
            thread.start();
        }
        return this;
    }

    /**
     * One pass over the shards that are ready: one read each, ingested and acknowledged.
     *
     * @return records read
     * @throws RuntimeException from DynamoDB (listing shards, reading, saving positions); nothing unacknowledged is lost
     */
    public synchronized int pollOnce() {
        List<Shard> shards = reader.shards();
        Set<String> listed = new java.util.HashSet<>();
        shards.forEach(s -> listed.add(s.shardId()));
        int seen = 0;
        Instant now = Instant.now();
        for (Shard shard : shards) {
            String id = shard.shardId();
            String parent = shard.parentShardId();
            if (positions.isDone(id) || stopped.containsKey(id) || now.isBefore(backoffUntil.getOrDefault(id, Instant.MIN))
                    || (parent != null && listed.contains(parent) && !positions.isDone(parent))) {
                continue;
            }
            seen += poll(id, listed);
        }
        return seen;
    }

    private int poll(String id, Set<String> listed) {
        Position at = positions.get(id);
        String after = at == null ? null : at.sequenceNumber();
        ShardReader.Batch batch = reader.read(id, after);
        if (batch.records().isEmpty()) {
            if (batch.drained()) {
                positions.save(id, new Position(after, true), listed);
                log.info("shard {} drained", id);
            }
            return 0;
        }
        List<ChangeRecord> records = batch.records();
        BatchOutcome o = indexer.ingest(records, id);
        if (o.complete()) {
            positions.save(id, new Position(records.get(records.size() - 1).sequenceNumber(), batch.drained()), listed);
            return records.size();
        }
        String failed = o.firstNotIngested();
        int k = 0;
        while (!records.get(k).sequenceNumber().equals(failed)) k++;
        String before = k == 0 ? after : records.get(k - 1).sequenceNumber();
        if (before != null && !before.equals(after)) {
            positions.save(id, new Position(before, false), listed);
        }
        reader.rewind(id);
        if (o.rejected() != null && o.rejected().sequenceNumber().equals(failed)) {
            if (config.onRejected() == PollerConfig.OnRejected.RECORD_AND_CONTINUE) {
                rejectedLog.record(config.storeTable(), id, o.rejected());
                positions.save(id, new Position(failed, false), listed);
                log.error("{}; recorded in {} and skipped", o.rejected(), RejectedLog.STREAM);
            } else {
                stop(id, failed, "(" + o.rejected().key() + ") " + o.rejected().reason(), null);
            }
        } else if (o.errors().stream().anyMatch(StreamsPoller::permanent)) {
            RuntimeException cause = o.errors().stream().filter(StreamsPoller::permanent).findFirst().orElseThrow();
            stop(id, failed, cause.getMessage(), cause);
        } else {
            backoffUntil.put(id, Instant.now().plus(config.retryBackoff()));
            log.warn("shard {}: not ingested from {}, retrying in {}: {}", id, failed, config.retryBackoff(), o.errors());
        }
        return k;
    }

    /**
     * Errors that retrying the same records cannot fix: a gap, an index written by a newer format,
     * an item DynamoDB would refuse, an item not of the store format. They stop the shard (named,
     * in {@link #stoppedShards()}) instead of being retried forever; everything else is transient.
     */
    private static boolean permanent(RuntimeException e) {
        return e instanceof FeedGapException || e instanceof FeedFormatException
                || e instanceof ItemTooLargeException || e instanceof StoreFormatException;
    }

    private void stop(String id, String at, String reason, Throwable cause) {
        ShardStoppedException e = new ShardStoppedException(id, at, reason, cause);
        stopped.put(id, e);
        log.error("{}; the poller reads no further on this shard until restarted", e.getMessage());
    }

    /** Shards stopped by a failure retrying cannot fix, with why. */
    public Map<String, ShardStoppedException> stoppedShards() {
        return Map.copyOf(stopped);
    }

    private void run() {
        while (running) {
            Duration wait;
            try {
                wait = pollOnce() > 0 ? Duration.ZERO : config.idleWait();
            } catch (RuntimeException e) {
                log.warn("poll failed, retrying in {}: {}", config.retryBackoff(), e.toString());
                wait = config.retryBackoff();
            }
            if (!wait.isZero()) {
                synchronized (wake) {
                    try {
                        if (running) wake.wait(Math.max(1, wait.toMillis()));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }
    }

    /** Stops after the batch in hand (its position saved) and waits for the thread to end. */
    @Override
    public void close() {
        Thread t;
        synchronized (wake) {
            running = false;
            wake.notifyAll();
        }
        synchronized (this) {
            t = thread;
            thread = null;
        }
        if (t != null) {
            try {
                t.join(Duration.ofSeconds(30).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
