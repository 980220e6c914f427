package io.appendsfeed.indexer.backfill;

import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.settings.IndexerSettings;
import io.appendsfeed.model.DynamoClients;
import java.util.function.Function;

/**
 * A backfill's settings, read in this one place from variables (or the matching options of {@code feed backfill}):
 * {@code APPENDS_STORE_TABLE} and {@code APPENDS_INDEX_TABLE} are required, the common indexer variables are
 * {@link IndexerSettings}', and the constants below default as {@link BackfillConfig} does (no cap on items per second).
 */
public record BackfillSettings(BackfillConfig backfill, IndexerConfig indexer, DynamoClients.Settings dynamo) {

    public static final String SEGMENTS = "APPENDS_SEGMENTS";
    public static final String PAGE_SIZE = "APPENDS_PAGE_SIZE";
    public static final String MAX_ITEMS_PER_SECOND = "APPENDS_MAX_ITEMS_PER_SECOND";

    /** @throws IllegalArgumentException naming the setting that is missing or invalid and what it takes */
    public static BackfillSettings from(Function<String, String> env) {
        IndexerSettings common = IndexerSettings.from(env);
        BackfillConfig backfill = BackfillConfig.of(IndexerSettings.text(env, IndexerSettings.STORE_TABLE, "the event-store table to scan"))
                .withSegments(IndexerSettings.number(env, SEGMENTS, BackfillConfig.DEFAULT_SEGMENTS, 1))
                .withPageSize(IndexerSettings.number(env, PAGE_SIZE, BackfillConfig.DEFAULT_PAGE_SIZE, 1))
                .withMaxItemsPerSecond(IndexerSettings.number(env, MAX_ITEMS_PER_SECOND, 0, 0));
        return new BackfillSettings(backfill, common.config(), common.dynamo());
    }
}
