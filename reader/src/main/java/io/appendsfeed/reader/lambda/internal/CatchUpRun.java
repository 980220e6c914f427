package io.appendsfeed.reader.lambda.internal;

import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.CatchUpResult;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.PartitionLag;
import io.appendsfeed.reader.StreamHandler;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The one place the Lambda host drives a {@link FeedReader}: a fresh reader per run, reading the
 * given partitions (those whose leases it can take) until it has handled everything up to their
 * tails or the time is up, then committing and releasing its leases.
 */
public final class CatchUpRun {

    /**
     * @param caughtUp every partition this run held was read to its tail, handled and committed
     * @param problems partitions that stopped on something they cannot read, with why
     */
    public record Result(boolean caughtUp, List<String> problems) {
        public Result {
            problems = List.copyOf(problems);
        }
    }

    private CatchUpRun() {}

    /**
     * @param partitions the partitions to read; empty for every partition the configuration reads
     * @param owner this invocation's name in leases and checkpoints
     * @param budget how long to read; closing (waiting for handler calls, committing) comes on top, up to
     *               {@code shutdownTimeout}
     * @throws RuntimeException when the index table cannot be found (the reader's start)
     */
    public static Result run(DynamoDbClient dynamo, FeedReaderConfig config, StreamHandler handler, Set<PartitionId> partitions,
                             String owner, Duration budget, Duration shutdownTimeout) {
        FeedReaderConfig.Builder b = config.toBuilder().owner(owner).shutdownTimeout(shutdownTimeout);
        if (!partitions.isEmpty()) {
            b.partitions(partitions);
        }
        CatchUpResult r = new FeedReader(dynamo, b.build(), handler).runUntilCaughtUp(budget);
        List<String> problems = r.lag().stream().filter(l -> l.state() == PartitionLag.State.FAILED)
                .map(l -> "partition " + l.partition() + ": " + l.error()).toList();
        return new Result(r.caughtUp(), problems);
    }
}
