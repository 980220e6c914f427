package io.appendsfeed.reader.cli;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.StartPosition;
import io.appendsfeed.reader.StoredCheckpoint;
import io.appendsfeed.reader.cli.internal.Arguments;
import io.appendsfeed.reader.cli.internal.CliContext;
import io.appendsfeed.reader.cli.internal.Connection;
import io.appendsfeed.reader.cli.internal.Formats;
import io.appendsfeed.reader.cli.internal.PositionArgument;
import io.appendsfeed.reader.cli.internal.UsageException;
import io.appendsfeed.reader.internal.FeedPositions;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "set", mixinStandardHelpOptions = true,
        description = {"Moves a group's checkpoint in one partition (backwards too) and records why.",
                "Shows what would change and changes nothing without --yes. A reader holding the partition's lease"
                        + " stops at its next commit and restarts from the new checkpoint."})
final class SetCheckpointCommand implements Callable<Integer> {

    private final CliContext ctx;

    @ParentCommand
    CheckpointsCommand parent;

    @Mixin
    CommonOptions common;

    @Option(names = "--group", required = true, paramLabel = "GROUP", description = "the consumer group")
    String group;

    @Option(names = "--partition", required = true, paramLabel = "P", description = "the partition")
    int partition;

    @Option(names = "--to", required = true, paramLabel = "POSITION",
            description = "raw checkpoint (1000042), EPOCH/OFFSET (1/42), start, tail, or time:ISO-8601 (time:2026-11-23T09:00:00Z)")
    String to;

    @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "why; kept in the checkpoint's history")
    String reason;

    @Option(names = "--yes", description = "apply the change (without it nothing is written)")
    boolean yes;

    SetCheckpointCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        String g = Arguments.group(group);
        StartPosition position = PositionArgument.parse("--to", to);
        if (reason.isBlank()) {
            throw new UsageException("--reason is blank: say why the checkpoint moves, e.g. --reason \"replay after fixing bug 123\"");
        }
        try (Connection c = Connection.open(common.settings(ctx, parent.common), ctx.clock(), false)) {
            DynamoCheckpointStore store = c.checkpoints();
            PartitionId p = Arguments.partition(partition, store.indexState().partitions());
            FeedPositions positions = c.positions();
            Checkpoint target = PositionArgument.locate(positions, p, position);
            check(positions, p, target);
            Optional<StoredCheckpoint> current = store.read(g, p);
            PrintWriter out = ctx.out();
            out.println("group " + g + ", partition " + p);
            out.println("  from:   " + current.map(s -> s.checkpoint() + ", committed " + Formats.time(s.committedAt())
                    + " by " + s.committedBy()).orElse("none (the group would start from its configured start position)"));
            out.println("  to:     " + target + (position instanceof StartPosition.At ? "" : ", " + PositionArgument.describe(position)));
            out.println("  effect: " + effect(positions, p, current.map(StoredCheckpoint::checkpoint).orElse(null), target));
            out.println("  reason: " + reason);
            if (current.isPresent() && current.get().checkpoint().equals(target)) {
                out.println("the checkpoint is already there; nothing changed");
                out.flush();
                return FeedCli.OK;
            }
            if (!yes) {
                out.println("nothing changed: run again with --yes to apply");
                out.flush();
                return FeedCli.OK;
            }
            StoredCheckpoint written = store.override(g, p, target, reason);
            out.println("done: the checkpoint is " + written.checkpoint() + ", recorded in "
                    + FeedStreams.checkpoint(g, p) + " (see: feed checkpoints history --group " + g + " --partition " + p + ")");
            out.flush();
            return FeedCli.OK;
        }
    }

    /** A checkpoint past the tail, or past the end of a closed epoch, would leave the group waiting for events that never come. */
    private static void check(FeedPositions positions, PartitionId p, Checkpoint target) {
        Checkpoint tail = positions.tail(p);
        if (target.compareTo(tail) > 0) {
            throw new UsageException("--to " + target + " is beyond the tail of partition " + p + " (" + tail
                    + "): the group would skip whatever is indexed up to there. Use --to tail for the current end");
        }
        if (target.epoch().compareTo(tail.epoch()) < 0) {
            EpochId e = target.epoch();
            long length = positions.distance(p, Checkpoint.of(e, 0), Checkpoint.of(e.next(), 0));
            if (target.offset() > length) {
                throw new UsageException("--to " + target + " is past the end of epoch " + e + " of partition " + p
                        + ", which is closed with " + length + " epoch events: use at most " + e + "/" + length
                        + " (same as " + e.next() + "/0)");
            }
        }
    }

    private static String effect(FeedPositions positions, PartitionId p, Checkpoint from, Checkpoint to) {
        if (from == null) {
            return "the group starts at " + to.display() + " in this partition";
        }
        int c = to.compareTo(from);
        if (c == 0) {
            return "none";
        }
        if (c < 0) {
            return positions.distance(p, to, from) + " epoch events back: the group reads them again";
        }
        return positions.distance(p, from, to) + " epoch events forward: the group skips them";
    }
}
