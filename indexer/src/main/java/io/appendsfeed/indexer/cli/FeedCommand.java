package io.appendsfeed.indexer.cli;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedPositions;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.StartPosition;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** What every {@code feed} command shares: the run's context, the connection, and the parsing of typed values. */
abstract class FeedCommand implements Callable<Integer> {

    static final String POSITIONS = "a raw checkpoint (1000042), EPOCH/OFFSET (1/42), start, tail,"
            + " or a time (time:2026-11-23T09:00:00Z or 2026-11-23T09:00:00Z)";

    CliContext ctx;

    @Spec
    CommandSpec spec;

    /** Connects with the connection options, given anywhere on the command line ({@link FeedCli}'s), else the environment. */
    Connection connect(Connection.Use use, boolean needStore) {
        FeedCli o = (FeedCli) spec.root().userObject();
        return Connection.open(ctx, new Connection.Options(Connection.first(o.endpoint, null), Connection.first(o.region, null),
                Connection.first(o.profile, null), o.storeTable, o.indexTable), use, needStore);
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

    /** A position typed as {@code option}, in one of the {@link #POSITIONS} forms. @throws CliException naming them */
    static StartPosition position(String option, String text) {
        String t = text.trim();
        if (t.equalsIgnoreCase("start")) {
            return StartPosition.beginning();
        }
        if (t.equalsIgnoreCase("tail")) {
            return StartPosition.tail();
        }
        String time = t.regionMatches(true, 0, "time:", 0, 5) ? t.substring(5).trim() : t.contains("T") ? t : null;
        try {
            return time != null ? StartPosition.time(Instant.parse(time)) : StartPosition.at(Checkpoint.parse(t));
        } catch (DateTimeParseException e) {
            throw new CliException(option + " '" + text + "' is not an ISO-8601 UTC time: write it like 2026-11-23T09:00:00Z", e);
        } catch (IllegalArgumentException e) {
            throw new CliException(option + " '" + text + "' is not a position: give " + POSITIONS, e);
        }
    }

    /**
     * The checkpoint a position stands for in one partition, refused where a reader could never get: past the tail
     * (it would wait for events that never come, and skip what is indexed up to it), or past a closed epoch's end.
     *
     * @throws CliException showing the tail, or the epoch's last position
     */
    static Checkpoint reachable(String option, FeedPositions positions, PartitionId p, StartPosition position) {
        Checkpoint tail = positions.tail(p);
        Checkpoint target = position instanceof StartPosition.Tail ? tail
                : position instanceof StartPosition.AtTime t ? positions.firstIndexedAtOrAfter(p, t.time())
                : position instanceof StartPosition.At at ? at.checkpoint() : Checkpoint.START;
        if (target.compareTo(tail) > 0) {
            throw new CliException(option + " " + target + " is beyond the tail of partition " + p + " (" + tail
                    + "): nothing is indexed there yet. Use " + option + " tail for the current end, or a position up to "
                    + tail.display());
        }
        EpochId e = target.epoch();
        long length = e.compareTo(tail.epoch()) < 0 ? positions.distance(p, Checkpoint.of(e, 0), Checkpoint.of(e.next(), 0)) : -1;
        if (length >= 0 && target.offset() > length) {
            throw new CliException(option + " " + target + " is past the end of epoch " + e + " of partition " + p
                    + ", which is closed with " + length + " epoch events: use at most " + e + "/" + length
                    + " (same as " + e.next() + "/0)");
        }
        return target;
    }
}
