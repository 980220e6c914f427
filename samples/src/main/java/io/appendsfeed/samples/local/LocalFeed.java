package io.appendsfeed.samples.local;

import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.poller.PollerConfig;
import io.appendsfeed.indexer.poller.StreamsPoller;
import io.appendsfeed.model.metrics.Metrics;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreTables;
import java.time.Duration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** A store with its feed, as the samples run it locally: both tables, and the indexer fed live by the Streams poller. */
public final class LocalFeed implements AutoCloseable {

    /** Wait between polls that found nothing. */
    public static final Duration IDLE_WAIT = Duration.ofMillis(50);

    private final String storeTable;
    private final String indexTable;
    private final StoreClient store;
    private final StoreClient index;
    private final StreamsPoller poller;

    private LocalFeed(DynamoDbClient dynamo, String storeTable, String indexTable, StreamsPoller poller) {
        this.storeTable = storeTable;
        this.indexTable = indexTable;
        this.store = new StoreClient(dynamo, StoreConfig.builder(storeTable).build());
        this.index = new StoreClient(dynamo, StoreConfig.builder(indexTable).reservedStreams(true).build());
        this.poller = poller;
    }

    /** Creates both tables unless they exist and starts indexing; the caller owns and closes the clients. */
    public static LocalFeed start(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String storeTable, String indexTable,
                                  int partitions) {
        return start(dynamo, streams, storeTable, indexTable, partitions, Metrics.NONE);
    }

    /** As {@link #start(DynamoDbClient, DynamoDbStreamsClient, String, String, int)}, the indexer reporting to {@code metrics}. */
    public static LocalFeed start(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String storeTable, String indexTable,
                                  int partitions, Metrics metrics) {
        StoreTables.ensure(dynamo, storeTable, StreamViewType.NEW_IMAGE);
        StoreTables.ensure(dynamo, indexTable, null);
        Indexer indexer = Indexer.start(dynamo, IndexerConfig.builder(indexTable).partitions(partitions).storeTable(storeTable)
                .metrics(metrics).build());
        PollerConfig config = PollerConfig.of(storeTable).withIdleWait(IDLE_WAIT);
        return new LocalFeed(dynamo, storeTable, indexTable, new StreamsPoller(dynamo, streams, indexer, config).start());
    }

    public String storeTable() { return storeTable; }
    public String indexTable() { return indexTable; }
    /** A client of the store table, for writers. */
    public StoreClient store() { return store; }
    /** A client of the index table (reserved streams allowed), to look at the feed itself. */
    public StoreClient index() { return index; }

    /** Stops indexing after the batch in hand, and waits for it. */
    @Override
    public void close() {
        poller.close();
    }
}
