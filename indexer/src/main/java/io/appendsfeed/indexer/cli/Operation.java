package io.appendsfeed.indexer.cli;

import io.appendsfeed.indexer.PartitionCountMismatchException;
import io.appendsfeed.indexer.cli.CommonOptions;
import io.appendsfeed.indexer.cli.CliContext;
import io.appendsfeed.indexer.cli.Connection;
import io.appendsfeed.indexer.cli.CliSettings;
import io.appendsfeed.indexer.cli.UsageException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * What the indexer's operations share: they connect with the CLI's one set of connection options
 * (the store table must be a store, the index table an index or a new one), and read their
 * settings through the same settings classes as their environment-only deployments, with the
 * command line's values in place of the variables'. A log line per step (INFO) goes to stderr.
 */
abstract class Operation {

    final CliContext ctx;

    Operation(CliContext ctx) {
        this.ctx = ctx;
    }

    /** Connects with both tables checked for their role. */
    Connection connect(CommonOptions common) {
        return Connection.open(ctx, common.settings(ctx, null), Connection.IndexUse.INDEX, true);
    }

    /** The variables as settings classes read them: the command line's values, then the environment. */
    Function<String, String> variables(Connection c, IndexerOptions indexer, Map<String, String> more) {
        Map<String, String> given = new HashMap<>(more);
        indexer.into(given);
        given.put(CliSettings.STORE_TABLE_VAR, c.storeTable());
        given.put(CliSettings.INDEX_TABLE_VAR, c.indexTable());
        return name -> given.containsKey(name) ? given.get(name) : ctx.env().apply(name);
    }

    /**
     * Runs what starts an indexer on the index table, turning a partition count the index does not
     * record into a usage error (one line naming the option and the index's count).
     */
    static <T> T starting(IndexerOptions indexer, java.util.function.Supplier<T> start) {
        try {
            return start.get();
        } catch (PartitionCountMismatchException e) {
            throw new UsageException(indexer.mismatch(e), e);
        }
    }

    /** Reads settings, turning what a settings class refuses into a usage error (one line). */
    static <T> T settings(java.util.function.Supplier<T> read) {
        try {
            return read.get();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), e);
        }
    }
}
