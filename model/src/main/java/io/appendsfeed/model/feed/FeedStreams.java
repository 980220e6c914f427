package io.appendsfeed.model.feed;

import io.appendsfeed.model.StreamName;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Names of the feed's own streams in the index table. These names define the storage format. */
public final class FeedStreams {

    public static final String EPOCH_CATEGORY = "$AppendsEpoch";

    public static final StreamName INDEX = StreamName.of("$AppendsIndex", "0");

    private static final Pattern EPOCH = Pattern.compile("\\$AppendsEpoch-(\\d+)_(\\d+)");
    private static final Pattern GROUP = Pattern.compile("[A-Za-z0-9.:-]+");

    private FeedStreams() {}

    public static StreamName epoch(PartitionId partition, EpochId epoch) {
        return StreamName.of(EPOCH_CATEGORY, partition.value() + "_" + epoch.value());
    }

    /** Null when {@code stream} is not an epoch's. */
    public static EpochAddress parseEpoch(StreamName stream) {
        Matcher m = EPOCH.matcher(stream.value());
        if (!m.matches()) {
            return null;
        }
        return new EpochAddress(PartitionId.of(Integer.parseInt(m.group(1))), EpochId.of(Integer.parseInt(m.group(2))));
    }

    /** {@code $ReaderCheckpoint-<group>_<partition>}; {@link #checkGroup} says which groups are valid. */
    public static StreamName checkpoint(String group, PartitionId partition) {
        checkGroup(group);
        return StreamName.of("$ReaderCheckpoint", group + "_" + partition.value());
    }

    /** @throws IllegalArgumentException saying which characters a consumer group name may have */
    public static String checkGroup(String group) {
        Objects.requireNonNull(group, "group");
        if (!GROUP.matcher(group).matches() || group.length() > 200) {
            throw new IllegalArgumentException("consumer group '" + group + "' is not valid: use 1 to 200 letters,"
                    + " digits, '.', ':' or '-' (no '_', which separates the group from the partition)");
        }
        return group;
    }

    public record EpochAddress(PartitionId partition, EpochId epoch) {}
}
