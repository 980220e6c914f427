package io.appendsfeed.indexer.lambda;

import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.SameTableException;
import io.appendsfeed.indexer.settings.IndexerSettings;
import io.appendsfeed.indexer.settings.MetricsSettings;
import io.appendsfeed.model.DynamoClients;
import java.util.function.Function;

/**
 * The Lambda's settings, read from environment variables in this one place (through a
 * {@code Function<String,String>} so that tests pass a map): those every indexer deployable shares
 * ({@link IndexerSettings}: {@code APPENDS_INDEX_TABLE}, {@code APPENDS_STORE_TABLE} (required by the
 * Lambda handler, which refuses records of any other table), {@code APPENDS_PARTITIONS},
 * {@code APPENDS_EPOCH_MAX_*}, {@code APPENDS_ALLOW_GAPS}, {@code APPENDS_STORE_PREDATES_FEED},
 * {@code APPENDS_DYNAMODB_ENDPOINT}, {@code AWS_REGION}), and the Lambda's own:
 *
 * <table>
 * <tr><td>{@code APPENDS_BATCH_SIZE}</td><td>the event source mapping's {@code BatchSize} (the template sets it): a
 * batch that large means more records are waiting, so the epochs' Tips may lag behind for up to
 * {@code APPENDS_TIP_LAG_MS} and each batch is one write; unset or 0: every batch moves the Tips</td></tr>
 * </table>
 *
 * <p>and where its figures go ({@link MetricsSettings}: {@code APPENDS_METRICS} / {@code POWERTOOLS_METRICS_DISABLED},
 * {@code APPENDS_METRICS_NAMESPACE} / {@code POWERTOOLS_METRICS_NAMESPACE}, {@code APPENDS_SERVICE_NAME} /
 * {@code POWERTOOLS_SERVICE_NAME}).
 */
public record LambdaSettings(String storeTable, IndexerConfig config, DynamoClients.Settings dynamo, int batchSize,
                             MetricsSettings metrics) {

    public static final String INDEX_TABLE = IndexerSettings.INDEX_TABLE;
    public static final String STORE_TABLE = IndexerSettings.STORE_TABLE;
    public static final String PARTITIONS = IndexerSettings.PARTITIONS;
    public static final String EPOCH_MAX_EVENTS = IndexerSettings.EPOCH_MAX_EVENTS;
    public static final String EPOCH_MAX_BYTES = IndexerSettings.EPOCH_MAX_BYTES;
    public static final String EPOCH_MAX_STREAMS = IndexerSettings.EPOCH_MAX_STREAMS;
    public static final String ALLOW_GAPS = IndexerSettings.ALLOW_GAPS;
    public static final String STORE_PREDATES_FEED = IndexerSettings.STORE_PREDATES_FEED;
    public static final String ENDPOINT = IndexerSettings.ENDPOINT;
    public static final String REGION = IndexerSettings.REGION;
    /** The Lambda's own. */
    public static final String BATCH_SIZE = "APPENDS_BATCH_SIZE";

    /**
     * @param storeTable null when not set
     * @param batchSize the event source mapping's batch size; 0 when unknown
     * @throws SameTableException when the store table is the index table
     */
    public LambdaSettings {
        java.util.Objects.requireNonNull(config, "config");
        java.util.Objects.requireNonNull(dynamo, "dynamo");
        java.util.Objects.requireNonNull(metrics, "metrics");
        if (batchSize < 0) {
            throw new IllegalArgumentException("batchSize must be >= 0 (0: unknown), was " + batchSize);
        }
        SameTableException.check(storeTable, config.indexTable());
    }

    /** With the default metrics ({@link MetricsSettings#DEFAULT}). */
    public LambdaSettings(String storeTable, IndexerConfig config, DynamoClients.Settings dynamo, int batchSize) {
        this(storeTable, config, dynamo, batchSize, MetricsSettings.DEFAULT);
    }

    /**
     * @throws SameTableException when {@code APPENDS_STORE_TABLE} names the index table
     * @throws IllegalArgumentException naming the variable that is missing or invalid and what it takes
     */
    public static LambdaSettings from(Function<String, String> env) {
        IndexerSettings common = IndexerSettings.from(env);
        return new LambdaSettings(common.storeTable(), common.config(), common.dynamo(),
                (int) IndexerSettings.numberOrZero(env, BATCH_SIZE, 0), MetricsSettings.from(env));
    }

    /** Whether a batch of {@code records} records says more are waiting: it is as large as the mapping's batch size. */
    public boolean moreWaiting(int records) {
        return moreWaiting(batchSize, records);
    }

    /** The rule: with a known mapping batch size ({@code batchSize > 0}), a batch that large means more are waiting. */
    static boolean moreWaiting(int batchSize, int records) {
        return batchSize > 0 && records >= batchSize;
    }
}
