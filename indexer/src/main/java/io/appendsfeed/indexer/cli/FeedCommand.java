package io.appendsfeed.indexer.cli;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * What every {@code feed} command shares: the run's {@link CliContext} (set by {@link FeedCli}'s factory)
 * and the one set of connection options. Each option falls back to the parent command's
 * ({@code feed checkpoints --index-table x set ...}), then to its environment variable.
 */
abstract class FeedCommand implements Callable<Integer> {

    CliContext ctx;

    @Spec
    CommandSpec spec;

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

    /** Connects with the options given here, then on the parent command, then in the environment ({@link Connection#open}). */
    Connection connect(Connection.Use use, boolean needStore) {
        FeedCommand up = spec.parent() != null && spec.parent().userObject() instanceof FeedCommand parent ? parent : this;
        CliSettings settings = CliSettings.resolve(pick(endpoint, up.endpoint), pick(region, up.region), pick(profile, up.profile),
                pick(storeTable, up.storeTable), pick(indexTable, up.indexTable), ctx.env());
        return Connection.open(ctx, settings, use, needStore);
    }

    /** Who is recorded as making a change: {@code --by}, else the user running the command. */
    String who(String by) {
        return by == null || by.isBlank() ? ctx.user() : by.trim();
    }

    /** @throws CliException saying which characters a group name may have */
    static String group(String group) {
        try {
            return FeedStreams.checkGroup(group);
        } catch (IllegalArgumentException e) {
            throw new CliException("--group: " + e.getMessage(), e);
        }
    }

    /** @throws CliException saying what a stream name looks like */
    static StreamName stream(String option, String stream) {
        String problem = StreamName.problem(stream);
        if (problem != null) {
            throw new CliException(option + " '" + stream + "' is not a stream name: " + problem);
        }
        return StreamName.parse(stream);
    }

    /** The partition given, or all when null. @throws CliException naming the partitions there are */
    static List<PartitionId> partitions(Integer partition, int partitions) {
        if (partition != null && (partition < 0 || partition >= partitions)) {
            throw new CliException("--partition " + partition + " does not exist: the feed has " + partitions
                    + (partitions == 1 ? " partition (0)" : " partitions (0.." + (partitions - 1) + ")"));
        }
        return partition != null ? List.of(PartitionId.of(partition)) : IntStream.range(0, partitions).mapToObj(PartitionId::of).toList();
    }

    private static String pick(String given, String parents) {
        return given != null ? given : parents;
    }
}
