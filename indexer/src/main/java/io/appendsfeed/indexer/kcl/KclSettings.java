package io.appendsfeed.indexer.kcl;

import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.settings.IndexerSettings;
import io.appendsfeed.model.DynamoClients;
import java.util.Locale;
import java.util.function.Function;

/**
 * The KCL worker's settings, from variables (or the options of {@code feed kcl}): {@link IndexerSettings}'
 * and the worker's, which default as {@link KclConfig} does, the application to {@code appendsfeed-<store table>}.
 * KCL's timings keep {@link KclConfig}'s defaults here; a library caller sets them on the builder.
 *
 * @param streamArn null: the store table's latest stream
 * @param worker the worker's configuration but for the stream, which {@link #config} adds
 */
public record KclSettings(String storeTable, String streamArn, IndexerConfig indexer, DynamoClients.Settings dynamo,
                          KclConfig.Builder worker) {

    public static final String STREAM_ARN = "APPENDS_STREAM_ARN";
    public static final String APPLICATION = "APPENDS_APPLICATION";
    public static final String LEASE_TABLE = "APPENDS_LEASE_TABLE";
    public static final String WORKER_ID = "APPENDS_WORKER_ID";
    public static final String ON_REJECTED = "APPENDS_ON_REJECTED";

    /** @throws IllegalArgumentException naming the setting that is missing or invalid and what it takes */
    public static KclSettings from(Function<String, String> env) {
        IndexerSettings common = IndexerSettings.from(env);
        String store = IndexerSettings.text(env, IndexerSettings.STORE_TABLE, "the event-store table whose stream is indexed");
        String app = IndexerSettings.value(env, APPLICATION);
        KclConfig.Builder worker = KclConfig.builder(app != null ? app : "appendsfeed-" + store, null)
                .leaseTable(IndexerSettings.value(env, LEASE_TABLE))
                .workerId(IndexerSettings.value(env, WORKER_ID))
                .onRejected(onRejected(env));
        return new KclSettings(store, IndexerSettings.value(env, STREAM_ARN), common.config(), common.dynamo(), worker);
    }

    /** The worker's configuration, for the given stream; call once: its default worker id is random. */
    public KclConfig config(String arn) {
        return worker.streamArn(arn).build();
    }

    private static KclConfig.OnRejected onRejected(Function<String, String> env) {
        String v = IndexerSettings.value(env, ON_REJECTED);
        try {
            return v == null ? KclConfig.OnRejected.STOP_SHARD : KclConfig.OnRejected.valueOf(v.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(ON_REJECTED + " is '" + v + "': give STOP_SHARD or RECORD_AND_CONTINUE", e);
        }
    }
}
