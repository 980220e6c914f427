package io.appendsfeed.indexer.cli;

import io.appendsfeed.indexer.cli.CliContext;
import io.appendsfeed.indexer.cli.CliSettings;
import picocli.CommandLine.Option;

/**
 * Where DynamoDB and the feed's tables are: the one set of connection options every command of
 * {@code feed} takes (the indexer's operations too), each falling back to its environment variable.
 */
public final class CommonOptions {

    @Option(names = "--endpoint", paramLabel = "URL",
            description = {"DynamoDB endpoint, e.g. http://localhost:8000 (env APPENDS_DYNAMODB_ENDPOINT, then the SDK's"
                    + " AWS_ENDPOINT_URL_DYNAMODB / AWS_ENDPOINT_URL; default: AWS). A loopback endpoint gets static local"
                    + " credentials unless --profile is given."})
    String endpoint;

    @Option(names = "--region", paramLabel = "REGION", description = "AWS region (env AWS_REGION; default: the profile's, then the SDK's chain)")
    String region;

    @Option(names = "--profile", paramLabel = "NAME", description = "AWS profile for credentials and region (default: the SDK's chain, which reads AWS_PROFILE)")
    String profile;

    @Option(names = "--store-table", paramLabel = "TABLE", description = "the event store table (env APPENDS_STORE_TABLE)")
    String storeTable;

    @Option(names = "--index-table", paramLabel = "TABLE", description = "the feed's index table (env APPENDS_INDEX_TABLE)")
    String indexTable;

    /** This command's options, then its parent command's ({@code feed checkpoints --index-table x set ...}), then the environment. */
    public CliSettings settings(CliContext ctx, CommonOptions parent) {
        return CliSettings.resolve(pick(endpoint, parent == null ? null : parent.endpoint),
                pick(region, parent == null ? null : parent.region),
                pick(profile, parent == null ? null : parent.profile),
                pick(storeTable, parent == null ? null : parent.storeTable),
                pick(indexTable, parent == null ? null : parent.indexTable), ctx.env());
    }

    private static String pick(String mine, String parents) {
        return mine != null ? mine : parents;
    }
}
