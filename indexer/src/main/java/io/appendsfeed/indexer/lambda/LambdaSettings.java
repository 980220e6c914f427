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
 * {@code APPENDS_DYNAMODB_ENDPOINT}, {@code AWS_REGION}), and where its figures go ({@link MetricsSettings}: {@code APPENDS_METRICS} / {@code POWERTOOLS_METRICS_DISABLED},
 * {@code APPENDS_METRICS_NAMESPACE} / {@code POWERTOOLS_METRICS_NAMESPACE}, {@code APPENDS_SERVICE_NAME} /
 * {@code POWERTOOLS_SERVICE_NAME}).
 */
public record LambdaSettings(String storeTable, IndexerConfig config, DynamoClients.Settings dynamo, MetricsSettings metrics) {

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

    /**
     * @param storeTable null when not set
     * @throws SameTableException when the store table is the index table
     */
    public LambdaSettings {
        java.util.Objects.requireNonNull(config, "config");
        java.util.Objects.requireNonNull(dynamo, "dynamo");
        java.util.Objects.requireNonNull(metrics, "metrics");
        SameTableException.check(storeTable, config.indexTable());
    }

    /** With the default metrics ({@link MetricsSettings#DEFAULT}). */
    public LambdaSettings(String storeTable, IndexerConfig config, DynamoClients.Settings dynamo) {
        this(storeTable, config, dynamo, MetricsSettings.DEFAULT);
    }

    /**
     * @throws SameTableException when {@code APPENDS_STORE_TABLE} names the index table
     * @throws IllegalArgumentException naming the variable that is missing or invalid and what it takes
     */
    public static LambdaSettings from(Function<String, String> env) {
        IndexerSettings common = IndexerSettings.from(env);
        return new LambdaSettings(common.storeTable(), common.config(), common.dynamo(), MetricsSettings.from(env));
    }
}
