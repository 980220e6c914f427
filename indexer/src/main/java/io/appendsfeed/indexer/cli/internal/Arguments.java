package io.appendsfeed.indexer.cli.internal;

import io.appendsfeed.indexer.cli.UsageException;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;

/** Checks of typed values that the model validates too, turned into usage errors. */
public final class Arguments {

    private Arguments() {}

    /** @throws UsageException saying which characters a group name may have */
    public static String group(String group) {
        try {
            return FeedStreams.checkGroup(group);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--group: " + e.getMessage(), e);
        }
    }

    /** @throws UsageException saying what a stream name looks like */
    public static StreamName stream(String option, String stream) {
        String problem = StreamName.problem(stream);
        if (problem != null) {
            throw new UsageException(option + " '" + stream + "' is not a stream name: " + problem);
        }
        return StreamName.parse(stream);
    }

    /** @throws UsageException naming the partitions there are */
    public static PartitionId partition(Integer partition, int partitions) {
        if (partition == null) {
            return null;
        }
        if (partition < 0 || partition >= partitions) {
            throw new UsageException("--partition " + partition + " does not exist: the feed has " + partitions
                    + (partitions == 1 ? " partition (0)" : " partitions (0.." + (partitions - 1) + ")"));
        }
        return PartitionId.of(partition);
    }
}
