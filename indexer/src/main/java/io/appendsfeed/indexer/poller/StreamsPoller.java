package io.appendsfeed.indexer.poller;

import io.appendsfeed.indexer.BatchOutcome;
import io.appendsfeed.indexer.BatchOutcome.RejectedRecord;
import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.FeedGapException;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.SameTableException;
import io.appendsfeed.indexer.internal.RejectedLog;
import io.appendsfeed.indexer.poller.internal.ShardPositions;
import io.appendsfeed.indexer.poller.internal.ShardPositions.Position;
import io.appendsfeed.indexer.poller.internal.ShardReader;
import io.appendsfeed.model.feed.FeedFormatException;
import io.appendsfeed.model.store.ItemTooLargeException;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreFormatException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Reads a store table's DynamoDB stream with the Streams API and feeds it to an {@link Indexer}; the
 * source used on DynamoDB Local. Reads a shard's children only after it is drained, and moves a shard's
 * saved position only over records durably in the feed. Only the holder of the lease kept with the
 * positions reads and saves; other pollers stand by and take over when it stops or its lease expires.
 */
public final class StreamsPoller implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StreamsPoller.class);
    /** The first wait after an empty poll; it doubles on each empty poll up to {@link PollerConfig#idleWait()}. */
    static final Duration FIRST_IDLE_WAIT = Duration.ofMillis(20);

    /**
     * The poller stopped reading a shard on a failure that retrying cannot fix (a rejected record under
     * {@link PollerConfig.OnRejected#STOP_SHARD}, or a gap); its position stays just before the record.
     */
    public static class ShardStoppedException extends RuntimeException {
        private final String shardId;

        public ShardStoppedException(String shardId, String sequenceNumber, String reason, Throwable cause) {
            super("shard " + shardId + " stopped at record " + sequenceNumber + ": " + reason, cause);
            this.shardId = shardId;
        }

        public String shardId() { return shardId; }
    }

    private final Indexer indexer;
    private final PollerConfig config;
    private final ShardReader reader;
    private final ShardPositions positions;
    private final RejectedLog rejectedLog;
    private final Map<String, ShardStoppedException> stopped = new ConcurrentHashMap<>();
    /** Per shard, when it is read again after a failure that may pass. */
    private final Map<String, Instant> backoffUntil = new HashMap<>();
    /**
     * The shards as last listed; null to list them again, not every pass: a shard appears only when another
     * closes, which this poller sees as that shard drained (or the next holder of the lease lists them afresh).
     */
    private List<Shard> shards;
    /** The next wait after an empty poll; null: {@link #FIRST_IDLE_WAIT}. */
    private Duration idle;
    /** The polling loop and the lease's renewal; null until started. */
    private ScheduledThreadPoolExecutor threads;

    /**
     * @throws SameTableException when the store table is the index table
     * @throws IllegalArgumentException when the store table has no stream
     * @throws RuntimeException from DynamoDB, e.g. when a table does not exist
     */
    public StreamsPoller(DynamoDbClient dynamo, DynamoDbStreamsClient streams, Indexer indexer, PollerConfig config) {
        SameTableException.check(config.storeTable(), indexer.config().indexTable());
        this.indexer = indexer;
        this.config = config;
        StoreClient index = new StoreClient(dynamo, StoreConfig.builder(indexer.config().indexTable())
                .reservedStreams(true).meter(indexer.config().meter()).build());
        this.reader = new ShardReader(dynamo, streams, config.storeTable(), config.recordsPerRead());
        this.positions = new ShardPositions(index, config.storeTable(), config.owner(), config.leaseDuration(), Clock.systemUTC());
        this.rejectedLog = new RejectedLog(index);
    }

    /** Polls on a background thread until {@link #close()}; the lease is renewed on another, so that a slow batch keeps it. */
    public synchronized StreamsPoller start() {
        if (threads == null) {
            ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(2, r -> {
                Thread thread = new Thread(r, "appendsfeed-poller-" + config.storeTable());
                thread.setDaemon(true);
                return thread;
            });
            t.setExecuteExistingDelayedTasksAfterShutdownPolicy(false); // close() cancels the next poll, lets the current one end
            long every = Math.max(1, config.leaseDuration().toMillis() / 6);
            t.scheduleWithFixedDelay(() -> {
                try {
                    positions.renewIfDue();
                } catch (RuntimeException e) {
                    log.warn("lease renewal failed, retrying: {}", e.toString());
                }
            }, every, every, TimeUnit.MILLISECONDS);
            t.execute(() -> loop(t));
            threads = t;
        }
        return this;
    }

    private void loop(ScheduledThreadPoolExecutor t) {
        Duration wait = pollAndWait();
        if (!t.isShutdown()) {
            t.schedule(() -> loop(t), wait.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * One pass: takes (or renews) the lease, then reads each ready shard once, ingests what it read and
     * saves the shard's position.
     *
     * @return records read; 0 on a standby
     * @throws RuntimeException from DynamoDB; the next pass reads again from the last saved position
     */
    public synchronized int pollOnce() {
        boolean held = positions.holdsLease();
        if (!positions.tryAcquire()) {
            return 0;
        }
        if (!held) {
            reader.rewindAll(); // positions may have moved while another poller held the lease
            backoffUntil.clear();
            shards = null;
        }
        if (!positions.renewIfDue()) {
            return 0;
        }
        if (shards == null) {
            shards = reader.shards();
        }
        List<Shard> current = shards; // a pass may drop the field (a shard drained): it goes on with this list
        Set<String> listed = current.stream().map(Shard::shardId).collect(Collectors.toSet());
        int seen = 0;
        for (Shard shard : current) {
            String id = shard.shardId();
            String parent = shard.parentShardId();
            if (positions.isDone(id) || stopped.containsKey(id) || Instant.now().isBefore(backoffUntil.getOrDefault(id, Instant.MIN))
                    || (parent != null && listed.contains(parent) && !positions.isDone(parent))) {
                continue;
            }
            try {
                seen += poll(id, listed);
            } catch (RuntimeException e) {
                reader.rewind(id); // the iterator may be past records whose position is not saved: read them again
                throw e;
            }
            if (!positions.holdsLease()) {
                reader.rewindAll();
                break;
            }
        }
        return seen;
    }

    /** Whether this poller holds the lease on the store table (saves positions) or stands by. */
    public boolean holdsLease() {
        return positions.holdsLease();
    }

    /** Shards stopped by a failure retrying cannot fix, with why. */
    public Map<String, ShardStoppedException> stoppedShards() {
        return Map.copyOf(stopped);
    }

    /** One read of a shard; the iterator is rewound unless the batch is wholly in the feed with its position saved. */
    private int poll(String id, Set<String> listed) {
        Position at = positions.get(id);
        String after = at == null ? null : at.sequenceNumber();
        ShardReader.Batch batch = reader.read(id, after);
        List<ChangeRecord> records = batch.records();
        if (batch.drained()) {
            shards = null; // its children may be new
        }
        if (records.isEmpty()) {
            if (batch.drained() && positions.save(id, new Position(after, true), listed)) {
                log.info("shard {} drained", id);
            }
            return 0;
        }
        BatchOutcome o = indexer.ingest(records, id);
        if (o.complete()) {
            if (!positions.save(id, new Position(records.get(records.size() - 1).sequenceNumber(), batch.drained()), listed)) {
                reader.rewind(id);
            }
            return records.size();
        }
        reader.rewind(id);
        String failed = o.firstNotIngested();
        int k = o.ingested(records, ChangeRecord::sequenceNumber);
        String before = k == 0 ? after : records.get(k - 1).sequenceNumber();
        if (before != null && !before.equals(after) && !positions.save(id, new Position(before, false), listed)) {
            return k;
        }
        RuntimeException permanent = o.errors().stream().filter(StreamsPoller::permanent).findFirst().orElse(null);
        RejectedRecord rejected = o.stoppedAtRejected();
        if (rejected != null) {
            if (config.onRejected() == PollerConfig.OnRejected.RECORD_AND_CONTINUE) {
                rejectedLog.record(config.storeTable(), id, rejected);
                if (positions.save(id, new Position(failed, false), listed)) {
                    log.error("{}; recorded in {} and skipped", rejected, RejectedLog.STREAM);
                }
            } else {
                stop(new ShardStoppedException(id, failed, "(" + rejected.key() + ") " + rejected.reason(), null));
            }
        } else if (permanent != null) {
            stop(new ShardStoppedException(id, failed, permanent.getMessage(), permanent));
        } else {
            backoffUntil.put(id, Instant.now().plus(config.retryBackoff()));
            log.warn("shard {}: not ingested from {}, retrying in {}: {}", id, failed, config.retryBackoff(), o.errors());
        }
        return k;
    }

    /** Errors that retrying the same records cannot fix: they stop the shard instead of being retried forever. */
    private static boolean permanent(RuntimeException e) {
        return e instanceof FeedGapException || e instanceof FeedFormatException
                || e instanceof ItemTooLargeException || e instanceof StoreFormatException;
    }

    private void stop(ShardStoppedException e) {
        stopped.put(e.shardId(), e);
        log.error("{}; the poller reads no further on this shard until restarted", e.getMessage());
    }

    /**
     * One pass of the loop, and the wait before the next: none while records flow; on empty polls, doubling
     * from {@link #FIRST_IDLE_WAIT} up to {@link PollerConfig#idleWait()}; a standby checks the lease every
     * third of it; after a failure, {@link PollerConfig#retryBackoff()}.
     */
    Duration pollAndWait() {
        Duration first = FIRST_IDLE_WAIT.compareTo(config.idleWait()) < 0 ? FIRST_IDLE_WAIT : config.idleWait();
        try {
            if (pollOnce() > 0) {
                idle = first; // records flow: the next ones are likely close behind
                return Duration.ZERO;
            }
            if (!holdsLease()) {
                return config.leaseDuration().dividedBy(3);
            }
            Duration wait = idle == null ? first : idle;
            idle = wait.multipliedBy(2).compareTo(config.idleWait()) < 0 ? wait.multipliedBy(2) : config.idleWait();
            return wait;
        } catch (RuntimeException e) {
            log.warn("poll failed, retrying in {}: {}", config.retryBackoff(), e.toString());
            return config.retryBackoff();
        }
    }

    /** Stops after the batch in hand (its position saved) and gives the lease up, so that a standby takes over at once. */
    @Override
    public void close() {
        ScheduledThreadPoolExecutor t;
        synchronized (this) {
            t = threads;
            threads = null;
        }
        if (t != null) {
            t.shutdown();
            try {
                t.awaitTermination(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            positions.release();
        }
    }
}
