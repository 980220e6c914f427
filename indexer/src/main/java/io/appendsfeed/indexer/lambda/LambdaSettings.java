package io.appendsfeed.indexer.lambda;

import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.settings.IndexerSettings;
import io.appendsfeed.indexer.settings.MetricsSettings;
import io.appendsfeed.model.DynamoClients;
import java.util.function.Function;

/**
 * The Lambda's settings from environment variables: {@link IndexerSettings} and {@link MetricsSettings}.
 *
 * @param config the indexer's configuration, without the metrics: {@link #indexerConfig()} adds them
 * @param batchSize the mapping's batch size ({@link IndexerSettings#LAMBDA_BATCH_SIZE}); 0 when not known
 */
public record LambdaSettings(IndexerConfig config, DynamoClients.Settings dynamo, MetricsSettings metrics, int batchSize) {

    /** @throws IllegalArgumentException naming the variable that is missing or invalid and what it takes */
    public static LambdaSettings from(Function<String, String> env) {
        IndexerSettings common = IndexerSettings.from(env);
        return new LambdaSettings(common.config(), common.dynamo(), MetricsSettings.from(env),
                IndexerSettings.number(env, IndexerSettings.LAMBDA_BATCH_SIZE, 0, 0));
    }

    /** The store table whose stream the function is mapped to; null when not set. */
    public String storeTable() {
        return config.storeTable();
    }

    /** The configuration with the metrics. */
    public IndexerConfig indexerConfig() {
        return config.toBuilder().metrics(metrics.metrics()).build();
    }
}
