package io.appendsfeed.indexer.backfill;

import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.settings.IndexerSettings;
import io.appendsfeed.model.DynamoClients;
import java.util.function.Function;

/**
 * A backfill's settings, read in this one place from variables (or the matching options of
 * {@code feed backfill}: {@code --store-table} for {@code APPENDS_STORE_TABLE}, and so on).
 *
 * <table>
 * <tr><td>{@code APPENDS_STORE_TABLE}</td><td>required: the event-store table to scan</td></tr>
 * <tr><td>{@code APPENDS_INDEX_TABLE}</td><td>required: the index table</td></tr>
 * <tr><td>{@code APPENDS_PARTITIONS}, {@code APPENDS_EPOCH_MAX_*}, {@code APPENDS_ALLOW_GAPS}</td><td>as for every indexer (see {@link IndexerSettings})</td></tr>
 * <tr><td>{@code APPENDS_SEGMENTS}</td><td>parallel scan segments (default 4)</td></tr>
 * <tr><td>{@code APPENDS_PAGE_SIZE}</td><td>items per scan page (default 1000)</td></tr>
 * <tr><td>{@code APPENDS_MAX_ITEMS_PER_SECOND}</td><td>cap on items read per second (default none)</td></tr>
 * <tr><td>{@code APPENDS_DYNAMODB_ENDPOINT}, {@code AWS_REGION}</td><td>where DynamoDB is (default: AWS, the SDK's region chain)</td></tr>
 * </table>
 */
public record BackfillSettings(BackfillConfig backfill, IndexerConfig indexer, DynamoClients.Settings dynamo) {

    public static final String STORE_TABLE = "APPENDS_STORE_TABLE";
    public static final String SEGMENTS = "APPENDS_SEGMENTS";
    public static final String PAGE_SIZE = "APPENDS_PAGE_SIZE";
    public static final String MAX_ITEMS_PER_SECOND = "APPENDS_MAX_ITEMS_PER_SECOND";

    /** @throws IllegalArgumentException naming the setting that is missing or invalid and what it takes */
    public static BackfillSettings from(Function<String, String> env) {
        IndexerSettings common = IndexerSettings.from(env);
        BackfillConfig backfill = BackfillConfig.builder(IndexerSettings.text(env, STORE_TABLE, "the event-store table to scan"))
                .segments(IndexerSettings.number(env, SEGMENTS, BackfillConfig.DEFAULT_SEGMENTS, 1))
                .pageSize(IndexerSettings.number(env, PAGE_SIZE, BackfillConfig.DEFAULT_PAGE_SIZE, 1))
                .maxItemsPerSecond(IndexerSettings.number(env, MAX_ITEMS_PER_SECOND, 0, 0))
                .build();
        return new BackfillSettings(backfill, common.config(), common.dynamo());
    }
}
