package io.appendsfeed.indexer.kcl;

import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.settings.IndexerSettings;
import io.appendsfeed.model.DynamoClients;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;
import software.amazon.kinesis.metrics.MetricsLevel;

/**
 * The KCL worker's settings, read in this one place from variables (or the matching options of
 * {@code feed kcl}: {@code --store-table} for {@code APPENDS_STORE_TABLE}, and so on).
 *
 * <table>
 * <tr><td>{@code APPENDS_STORE_TABLE}</td><td>required: the event-store table (Streams on)</td></tr>
 * <tr><td>{@code APPENDS_STREAM_ARN}</td><td>its stream; default: the table's {@code LatestStreamArn}</td></tr>
 * <tr><td>{@code APPENDS_INDEX_TABLE}</td><td>required: the index table</td></tr>
 * <tr><td>{@code APPENDS_PARTITIONS}, {@code APPENDS_EPOCH_MAX_*}, {@code APPENDS_ALLOW_GAPS}</td><td>as for every indexer (see {@link IndexerSettings})</td></tr>
 * <tr><td>{@code APPENDS_APPLICATION}</td><td>KCL application name (default {@code appendsfeed-<store table>})</td></tr>
 * <tr><td>{@code APPENDS_LEASE_TABLE}</td><td>default: the application name</td></tr>
 * <tr><td>{@code APPENDS_WORKER_ID}</td><td>default: host name and a random suffix</td></tr>
 * <tr><td>{@code APPENDS_IDLE_MILLIS}</td><td>wait between reads of a shard (default 1000)</td></tr>
 * <tr><td>{@code APPENDS_FAILOVER_MILLIS}</td><td>lease failover time (default 10000)</td></tr>
 * <tr><td>{@code APPENDS_SHARD_SYNC_MILLIS}</td><td>interval between shard listings (default 60000)</td></tr>
 * <tr><td>{@code APPENDS_ON_REJECTED}</td><td>{@code STOP_SHARD} (default) or {@code RECORD_AND_CONTINUE}</td></tr>
 * <tr><td>{@code APPENDS_KCL_METRICS}</td><td>what KCL publishes to CloudWatch itself: {@code NONE} (default), {@code SUMMARY} or {@code DETAILED}</td></tr>
 * <tr><td>{@code APPENDS_DYNAMODB_ENDPOINT}, {@code AWS_REGION}</td><td>where DynamoDB is (default: AWS, the SDK's region chain)</td></tr>
 * </table>
 *
 * @param streamArn null: look up the store table's latest stream
 */
public record KclSettings(String storeTable, String streamArn, IndexerConfig indexer, DynamoClients.Settings dynamo,
                          String application, String leaseTable, String workerId, Duration idle, Duration failover,
                          Duration shardSync, KclConfig.OnRejected onRejected, MetricsLevel kclMetrics) {

    public static final String STORE_TABLE = "APPENDS_STORE_TABLE";
    public static final String STREAM_ARN = "APPENDS_STREAM_ARN";
    public static final String APPLICATION = "APPENDS_APPLICATION";
    public static final String LEASE_TABLE = "APPENDS_LEASE_TABLE";
    public static final String WORKER_ID = "APPENDS_WORKER_ID";
    public static final String IDLE_MILLIS = "APPENDS_IDLE_MILLIS";
    public static final String FAILOVER_MILLIS = "APPENDS_FAILOVER_MILLIS";
    public static final String SHARD_SYNC_MILLIS = "APPENDS_SHARD_SYNC_MILLIS";
    public static final String ON_REJECTED = "APPENDS_ON_REJECTED";
    public static final String KCL_METRICS = "APPENDS_KCL_METRICS";

    /** @throws IllegalArgumentException naming the setting that is missing or invalid and what it takes */
    public static KclSettings from(Function<String, String> env) {
        IndexerSettings common = IndexerSettings.from(env);
        String store = IndexerSettings.text(env, STORE_TABLE, "the event-store table whose stream is indexed");
        String app = IndexerSettings.value(env, APPLICATION);
        String rejected = IndexerSettings.value(env, ON_REJECTED);
        KclConfig.OnRejected onRejected;
        try {
            onRejected = rejected == null ? KclConfig.OnRejected.STOP_SHARD
                    : KclConfig.OnRejected.valueOf(rejected.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(ON_REJECTED + " is '" + rejected + "': give STOP_SHARD or RECORD_AND_CONTINUE", e);
        }
        String level = IndexerSettings.value(env, KCL_METRICS);
        MetricsLevel kclMetrics;
        try {
            kclMetrics = level == null ? MetricsLevel.NONE : MetricsLevel.valueOf(level.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(KCL_METRICS + " is '" + level + "': give NONE, SUMMARY or DETAILED", e);
        }
        return new KclSettings(store, IndexerSettings.value(env, STREAM_ARN), common.config(), common.dynamo(),
                app != null ? app : "appendsfeed-" + store, IndexerSettings.value(env, LEASE_TABLE), IndexerSettings.value(env, WORKER_ID),
                millis(env, IDLE_MILLIS, KclConfig.IDLE_TIME_BETWEEN_READS), millis(env, FAILOVER_MILLIS, KclConfig.FAILOVER_TIME),
                millis(env, SHARD_SYNC_MILLIS, KclConfig.SHARD_SYNC_INTERVAL), onRejected, kclMetrics);
    }

    /** The worker's configuration, for the given stream. */
    public KclConfig config(String arn) {
        KclConfig.Builder b = KclConfig.builder(application, arn).idleTimeBetweenReads(idle).failoverTime(failover)
                .shardSyncInterval(shardSync).onRejected(onRejected).kclMetrics(kclMetrics);
        if (leaseTable != null) b.leaseTable(leaseTable);
        if (workerId != null) b.workerId(workerId);
        return b.build();
    }

    private static Duration millis(Function<String, String> env, String name, Duration dflt) {
        return Duration.ofMillis(IndexerSettings.number(env, name, (int) dflt.toMillis(), 0));
    }
}
