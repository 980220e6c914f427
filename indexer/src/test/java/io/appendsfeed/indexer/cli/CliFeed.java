package io.appendsfeed.indexer.cli;

import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.reader.FeedFixture;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.Map;

/**
 * A feed for CLI tests on DynamoDB Local: the reader tests' {@link FeedFixture} (events in a fresh
 * store table, the epochs an indexer would write, right or, on purpose, wrong), plus running
 * {@code feed} with captured output and an environment map pointing at those tables.
 */
final class CliFeed extends FeedFixture {

    /** What one run of {@code feed} printed and returned. */
    record Run(int exit, String out, String err) {}

    final Map<String, String> env = new HashMap<>();

    CliFeed(LocalDynamo local, int partitions) {
        this(local, partitions, io.appendsfeed.model.store.StoreConfig.TIP_MAX_BYTES);
    }

    /** @param tipMaxBytes small values make the store calve often, so that scans meet calves too */
    CliFeed(LocalDynamo local, int partitions, int tipMaxBytes) {
        super(local, partitions, tipMaxBytes);
        env.put("APPENDS_DYNAMODB_ENDPOINT", local.endpoint().toString());
        env.put("APPENDS_INDEX_TABLE", indexTable);
        env.put("APPENDS_STORE_TABLE", storeTable);
    }

    /** Runs {@code feed args...} as a user would, with this feed's environment. */
    Run feed(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = FeedCli.commandLine(env::get, new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
        return new Run(exit, out.toString(), err.toString());
    }
}
