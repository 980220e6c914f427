package io.appendsfeed.indexer.cli;

import io.appendsfeed.indexer.settings.IndexerSettings;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import picocli.CommandLine.Option;

/**
 * The indexer's options shared by backfill, the KCL worker and the poller. The operations read them through the
 * settings classes their deployments read the environment with, the command line's values in place of the variables'.
 * The epoch's limits (APPENDS_EPOCH_MAX_*) come from the environment only, as the deployed indexers read them.
 */
final class IndexerOptions {

    @Option(names = "--partitions", paramLabel = "N", description = "feed partitions (env APPENDS_PARTITIONS; default: the count the index"
            + " records, 1 for a new index); another count than the index records is refused")
    Integer partitions;

    @Option(names = "--allow-gaps", description = "index past a gap with a WARN instead of stopping there (env APPENDS_ALLOW_GAPS)")
    boolean allowGaps;

    /** The tables connected to, these options and the operation's own ({@code name, value} pairs; null: not given), else the environment. */
    Function<String, String> variables(Connection c, CliContext ctx, Object... more) {
        Map<String, String> given = new HashMap<>();
        Object[] mine = {IndexerSettings.STORE_TABLE, c.storeTable(), IndexerSettings.INDEX_TABLE, c.indexTable(),
            IndexerSettings.PARTITIONS, partitions, IndexerSettings.ALLOW_GAPS, allowGaps ? "true" : null};
        for (Object[] pairs : new Object[][] {mine, more}) {
            for (int i = 0; i < pairs.length; i += 2) {
                if (pairs[i + 1] != null) {
                    given.put((String) pairs[i], pairs[i + 1].toString());
                }
            }
        }
        return name -> given.containsKey(name) ? given.get(name) : ctx.env().apply(name);
    }

    /** Reads settings, turning what a settings class refuses into a usage error (one line). */
    static <T> T settings(Supplier<T> read) {
        try {
            return read.get();
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage(), e);
        }
    }
}
