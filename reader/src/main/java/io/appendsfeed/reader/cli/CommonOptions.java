package io.appendsfeed.reader.cli;

import io.appendsfeed.reader.cli.internal.CliContext;
import io.appendsfeed.reader.cli.internal.Settings;
import picocli.CommandLine.Option;

/** Where the feed's tables are; every command takes these, each falling back to its environment variable. */
final class CommonOptions {

    @Option(names = "--endpoint", paramLabel = "URL",
            description = "DynamoDB endpoint, e.g. http://localhost:8000 (env APPENDS_DYNAMODB_ENDPOINT; default: AWS)")
    String endpoint;

    @Option(names = "--region", paramLabel = "REGION", description = "AWS region (env AWS_REGION; default: the SDK's chain)")
    String region;

    @Option(names = "--store-table", paramLabel = "TABLE", description = "the event store table (env APPENDS_STORE_TABLE)")
    String storeTable;

    @Option(names = "--index-table", paramLabel = "TABLE", description = "the feed's index table (env APPENDS_INDEX_TABLE)")
    String indexTable;

    /** This command's options, then its parent command's ({@code feed checkpoints --index-table x set ...}), then the environment. */
    Settings settings(CliContext ctx, CommonOptions parent) {
        return Settings.resolve(pick(endpoint, parent == null ? null : parent.endpoint),
                pick(region, parent == null ? null : parent.region),
                pick(storeTable, parent == null ? null : parent.storeTable),
                pick(indexTable, parent == null ? null : parent.indexTable), ctx.env());
    }

    private static String pick(String mine, String parents) {
        return mine != null ? mine : parents;
    }
}
