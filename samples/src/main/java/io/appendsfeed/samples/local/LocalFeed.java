package io.appendsfeed.samples.local;

import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.poller.PollerConfig;
import io.appendsfeed.indexer.poller.StreamsPoller;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreTables;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * An event store with its feed, as the samples run it locally: the store table (Streams on), the
 * index table, and the indexer fed live by the Streams poller. On AWS the indexer runs as a
 * Lambda on the table's stream instead; the samples' writers and reactors do not change.
 */
public final class LocalFeed implements AutoCloseable {

    /** Wait between polls that found nothing. */
    public static final Duration IDLE_WAIT = Duration.ofMillis(50);
    private static final Logger log = LoggerFactory.getLogger(LocalFeed.class);

    private final DynamoDbClient dynamo;
    private final String storeTable;
    private final String indexTable;
    private final StoreClient store;
    private final StoreClient index;
    private final Supplier<StreamsPoller> pollers;
    private final Thread thread;
    private volatile boolean running = true;

    private LocalFeed(DynamoDbClient dynamo, String storeTable, String indexTable, Supplier<StreamsPoller> pollers) {
        this.dynamo = dynamo;
        this.storeTable = storeTable;
        this.indexTable = indexTable;
        this.store = new StoreClient(dynamo, StoreConfig.builder(storeTable).build());
        this.index = new StoreClient(dynamo, StoreConfig.builder(indexTable).reservedStreams(true).build());
        this.pollers = pollers;
        this.thread = new Thread(this::poll, "local-feed-" + storeTable);
        this.thread.setDaemon(true);
    }

    /**
     * Creates both tables (unless they exist) and starts indexing the store table into the index
     * table, {@code partitions} partitions. The caller owns and closes the clients.
     *
     * @throws RuntimeException from DynamoDB, or when the index exists with another partition count
     */
    public static LocalFeed start(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String storeTable, String indexTable,
                                  int partitions) {
        StoreTables.ensure(dynamo, storeTable, StreamViewType.NEW_IMAGE);
        StoreTables.ensure(dynamo, indexTable, null);
        Indexer indexer = Indexer.start(dynamo, IndexerConfig.builder(indexTable).partitions(partitions).build());
        PollerConfig config = PollerConfig.builder(storeTable).build();
        LocalFeed feed = new LocalFeed(dynamo, storeTable, indexTable, () -> new StreamsPoller(dynamo, streams, indexer, config));
        feed.thread.start();
        return feed;
    }

    /**
     * Polls the store table's stream and indexes what it reads. A poll that fails gets a fresh
     * poller: it resumes from the shard positions the last one saved in the index table, with new
     * shard iterators. (Works around the poller keeping a shard iterator that DynamoDB Local
     * refuses after the poller started on an empty shard; see samples/README.md.)
     */
    private void poll() {
        StreamsPoller poller = pollers.get();
        while (running) {
            int read;
            try {
                read = poller.pollOnce();
            } catch (RuntimeException e) {
                log.warn("indexing poll failed ({}); continuing with a fresh poller from the saved positions", e.toString());
                poller = pollers.get();
                read = 0;
            }
            if (read == 0) {
                LockSupport.parkNanos(IDLE_WAIT.toNanos());
            }
        }
    }

    public DynamoDbClient dynamo() { return dynamo; }
    public String storeTable() { return storeTable; }
    public String indexTable() { return indexTable; }
    /** A client of the store table, for writers. */
    public StoreClient store() { return store; }
    /** A client of the index table (reserved streams allowed), to look at the feed itself. */
    public StoreClient index() { return index; }

    /** Stops indexing after the batch in hand, and waits for it. */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(Duration.ofSeconds(30).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
