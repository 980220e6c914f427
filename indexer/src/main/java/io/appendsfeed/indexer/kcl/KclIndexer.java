package io.appendsfeed.indexer.kcl;

import com.amazonaws.services.dynamodbv2.streamsadapter.AmazonDynamoDBStreamsAdapterClient;
import com.amazonaws.services.dynamodbv2.streamsadapter.StreamsSchedulerFactory;
import com.amazonaws.services.dynamodbv2.streamsadapter.polling.DynamoDBStreamsPollingConfig;
import io.appendsfeed.indexer.Indexer;
import io.appendsfeed.indexer.SameTableException;
import io.appendsfeed.indexer.internal.RejectedLog;
import io.appendsfeed.indexer.kcl.internal.IndexingProcessor;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.cloudwatch.CloudWatchAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.kinesis.common.ConfigsBuilder;
import software.amazon.kinesis.common.InitialPositionInStream;
import software.amazon.kinesis.common.InitialPositionInStreamExtended;
import software.amazon.kinesis.coordinator.Scheduler;
import software.amazon.kinesis.metrics.MetricsLevel;
import software.amazon.kinesis.metrics.NullMetricsFactory;

/**
 * A long-running indexer over KCL 3 and the DynamoDB Streams Kinesis adapter: workers share the store
 * table's shards through a lease table, parents before children, and KCL's checkpoint moves only over what
 * is durably in the feed. Reads from {@code TRIM_HORIZON} the first time, from the checkpoints after.
 */
public final class KclIndexer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KclIndexer.class);
    /** The region DynamoDB Local puts in its stream ARNs. */
    static final String DYNAMODB_LOCAL_REGION = "ddblocal";

    private final KclConfig config;
    private final IndexingProcessor.Worker state;
    private final Scheduler scheduler;
    private final CloudWatchAsyncClient cloudWatch;
    private final Thread thread;

    private KclIndexer(KclConfig config, IndexingProcessor.Worker state, Scheduler scheduler, CloudWatchAsyncClient cloudWatch) {
        this.config = config;
        this.state = state;
        this.scheduler = scheduler;
        this.cloudWatch = cloudWatch;
        this.thread = new Thread(scheduler, "appendsfeed-kcl-" + config.workerId());
    }

    /**
     * Starts the worker on a thread of its own; KCL creates the lease table when missing (and logs and retries
     * what fails in DynamoDB from then on).
     *
     * @param clients the clients; the caller closes them, after {@link #close()}
     * @throws SameTableException when the stream is the index table's own; nothing was created
     * @throws IllegalArgumentException when the stream is DynamoDB Local's ({@link #requireAwsStreamArn}); nothing was created
     */
    public static KclIndexer start(KclClients clients, Indexer indexer, KclConfig config) {
        SameTableException.check(config.streamArn(), indexer.config().indexTable());
        requireAwsStreamArn(config.streamArn());
        StoreClient index = new StoreClient(clients.dynamo(), StoreConfig.builder(indexer.config().indexTable())
                .reservedStreams(true).meter(indexer.config().meter()).build());
        var state = new IndexingProcessor.Worker(indexer, config, new RejectedLog(index), SameTableException.tableName(config.streamArn()),
                new CountDownLatch(1), new AtomicLong());
        var adapter = new AmazonDynamoDBStreamsAdapterClient(clients.streams(), clients.region());
        var tracker = StreamsSchedulerFactory.createSingleStreamTracker(config.streamArn(),
                InitialPositionInStreamExtended.newInitialPosition(InitialPositionInStream.TRIM_HORIZON));
        // KCL requires a CloudWatch client, but never calls it: its own metrics stay off, the indexer reports its figures itself
        CloudWatchAsyncClient cloudWatch = CloudWatchAsyncClient.builder().region(clients.region()).build();
        ConfigsBuilder configs = new ConfigsBuilder(tracker, config.applicationName(), adapter, clients.leases(),
                cloudWatch, config.workerId(), () -> new IndexingProcessor(state)).tableName(config.leaseTable());
        var leases = configs.leaseManagementConfig()
                .failoverTimeMillis(config.failoverTime().toMillis())
                .shardSyncIntervalMillis(config.shardSyncInterval().toMillis());
        var metrics = configs.metricsConfig().metricsLevel(MetricsLevel.NONE).metricsFactory(new NullMetricsFactory());
        var retrieval = configs.retrievalConfig().retrievalSpecificConfig(
                new DynamoDBStreamsPollingConfig(config.streamArn(), adapter)
                        .idleTimeBetweenReadsInMillis(config.idleTimeBetweenReads().toMillis()));
        Scheduler scheduler = StreamsSchedulerFactory.createScheduler(configs.checkpointConfig(), configs.coordinatorConfig(),
                leases, configs.lifecycleConfig(), metrics, configs.processorConfig(), retrieval, adapter);
        KclIndexer worker = new KclIndexer(config, state, scheduler, cloudWatch);
        worker.thread.start();
        log.info("KCL worker {} started on {} (application {}, lease table {})", config.workerId(), config.streamArn(),
                config.applicationName(), config.leaseTable());
        return worker;
    }

    /** The store table's {@code LatestStreamArn}. @throws IllegalArgumentException when the table has no stream enabled */
    public static String streamArn(DynamoDbClient dynamo, String storeTable) {
        var t = dynamo.describeTable(b -> b.tableName(storeTable)).table();
        if (t.latestStreamArn() == null || t.streamSpecification() == null || !Boolean.TRUE.equals(t.streamSpecification().streamEnabled())) {
            throw new IllegalArgumentException("table " + storeTable + " has no stream: enable DynamoDB Streams on it"
                    + " with NEW_IMAGE or NEW_AND_OLD_IMAGES");
        }
        return t.latestStreamArn();
    }

    /**
     * Refuses a DynamoDB Local stream ARN ({@code arn:aws:dynamodb:ddblocal:...}), which the adapter rejects on
     * every shard sync: the worker would log that forever and index nothing.
     *
     * @return the ARN
     */
    public static String requireAwsStreamArn(String streamArn) {
        String[] parts = streamArn.split(":", 6);
        if (parts.length > 3 && parts[3].equals(DYNAMODB_LOCAL_REGION)) {
            throw new IllegalArgumentException("the stream " + streamArn + " is DynamoDB Local's, and KCL's DynamoDB Streams adapter"
                    + " rejects DynamoDB Local's stream ARNs (region '" + DYNAMODB_LOCAL_REGION + "'): index it with `feed poll`"
                    + " (StreamsPoller) instead");
        }
        return streamArn;
    }

    /** Records this worker has durably ingested since it started. */
    public long recordsIngested() {
        return state.recordsIngested().get();
    }

    /** Whether the worker's thread still runs. */
    public boolean isRunning() {
        return thread.isAlive();
    }

    /**
     * Shuts down gracefully (batches being retried are given up; each shard checkpoints what it ingested),
     * up to {@link KclConfig#shutdownTimeout()}, then stops outright; nothing unacknowledged is lost either way.
     */
    @Override
    public void close() {
        state.closing().countDown();
        try {
            if (!scheduler.startGracefulShutdown().get(config.shutdownTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("KCL worker {}: graceful shutdown did not complete; stopping", config.workerId());
                scheduler.shutdown();
            }
        } catch (TimeoutException | ExecutionException e) {
            log.warn("KCL worker {}: graceful shutdown failed ({}); stopping", config.workerId(), e.toString());
            scheduler.shutdown();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            scheduler.shutdown();
        }
        try {
            thread.join(config.shutdownTimeout().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        cloudWatch.close();
        log.info("KCL worker {} stopped after ingesting {} records", config.workerId(), recordsIngested());
    }
}
