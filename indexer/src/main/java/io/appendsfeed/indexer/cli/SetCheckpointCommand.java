package io.appendsfeed.indexer.cli;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.FeedPositions;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.CheckpointStore.CheckpointOverride;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.CheckpointStore.OverrideResult;
import io.appendsfeed.reader.StartPosition;
import io.appendsfeed.reader.CheckpointStore.StoredCheckpoint;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "set", mixinStandardHelpOptions = true,
        description = {"Moves a group's checkpoint in one partition (backwards too) and records why and by whom.",
                "Shows what would change and changes nothing without --yes. With --yes the write is conditional: it lands only"
                        + " if the checkpoint is still the one shown (or the one given with --expect), so two operators never"
                        + " overwrite each other unseen. A reader holding the partition's lease stops at its next commit and"
                        + " restarts from the new checkpoint."})
final class SetCheckpointCommand extends FeedCommand {

    @Option(names = "--group", required = true, paramLabel = "GROUP", description = "the consumer group")
    String group;

    @Option(names = "--partition", required = true, paramLabel = "P", description = "the partition")
    int partition;

    @Option(names = "--to", required = true, paramLabel = "POSITION",
            description = "raw checkpoint (1000042), EPOCH/OFFSET (1/42), start, tail, or time:ISO-8601 (time:2026-11-23T09:00:00Z)")
    String to;

    @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "why; kept in the checkpoint's history")
    String reason;

    @Option(names = "--expect", paramLabel = "POSITION",
            description = "apply only if the checkpoint is still this (as a preview showed it: EPOCH/OFFSET, raw, or none)")
    String expect;

    @Option(names = "--create-group", description = "allow a group that has no checkpoint anywhere yet (a new group; guards against typos)")
    boolean createGroup;

    @Option(names = "--by", paramLabel = "NAME", description = "who moves it, kept in the history (default: the OS user)")
    String by;

    @Option(names = "--yes", description = "apply the change (without it nothing is written)")
    boolean yes;

    @Override
    public Integer call() {
        String g = group(group);
        StartPosition position = PositionArgument.parse("--to", to);
        Optional<Checkpoint> expected = expect == null ? null : expectation(expect); // null: whatever the preview reads now
        if (reason.isBlank()) {
            throw new CliException("--reason is blank: say why the checkpoint moves, e.g. --reason \"replay after fixing bug 123\"");
        }
        String who = who(by);
        try (Connection c = connect(Connection.Use.WRITE, false)) {
            DynamoCheckpointStore store = c.checkpoints();
            PartitionId p = partitions(partition, store.indexState().partitions()).get(0);
            List<String> groups = store.groups();
            if (!groups.contains(g) && !createGroup) {
                throw new CliException("group '" + g + "' has no checkpoint in index table '" + c.indexTable() + "' ("
                        + (groups.isEmpty() ? "no group has one yet" : "groups: " + String.join(", ", groups))
                        + "): check the name, or pass --create-group to start a new group");
            }
            FeedPositions positions = c.positions();
            Checkpoint target = PositionArgument.locate(positions, p, position);
            PositionArgument.checkReachable("--to", positions, p, target);
            Optional<StoredCheckpoint> current = store.read(g, p);
            Optional<Checkpoint> seen = current.map(StoredCheckpoint::checkpoint);
            PrintWriter out = ctx.out();
            out.println("group " + g + ", partition " + p);
            out.println("  from:   " + current.map(s -> s.checkpoint() + ", committed " + Output.time(s.committedAt())
                    + " by " + s.committedBy()).orElse("none (the group would start from its configured start position)"));
            List<CheckpointOverride> history = store.overrides(g, p);
            if (!history.isEmpty()) {
                CheckpointOverride last = history.get(history.size() - 1);
                out.println("  last set " + Output.time(last.at()) + " by " + last.by() + " to " + last.to().display() + ": " + last.reason());
            }
            out.println("  to:     " + target + (position instanceof StartPosition.AtTime t ? ", first event indexed at or after " + t.time()
                    : position instanceof StartPosition.At ? "" : ", " + (position instanceof StartPosition.Tail ? "tail" : "start")));
            out.println("  effect: " + effect(positions, p, seen.orElse(null), target));
            out.println("  reason: " + reason);
            out.println("  by:     " + who);
            if (expected != null && !expected.equals(seen)) {
                return moved(expected, current);
            }
            if (seen.isPresent() && seen.get().equals(target)) {
                out.println("the checkpoint is already there; nothing changed");
            } else if (!yes) {
                out.println("nothing changed: to apply exactly this, run again with --yes --expect " + seen.map(Checkpoint::display).orElse("none"));
            } else {
                // conditional on what was shown above: a commit or another operator in between makes it refuse
                OverrideResult r = store.overrideIf(g, p, seen, target, reason, who);
                if (r instanceof OverrideResult.Moved m) {
                    return moved(seen, m.current());
                }
                out.println("done: the checkpoint is " + ((OverrideResult.Applied) r).checkpoint().checkpoint() + ", recorded in "
                        + FeedStreams.checkpoint(g, p) + " (see: feed checkpoints history --group " + g + " --partition " + p + ")");
            }
            return FeedCli.OK;
        }
    }

    /** The checkpoint is not the one the operator decided on: nothing written, exit 1 with what it is now. */
    private int moved(Optional<Checkpoint> expected, Optional<StoredCheckpoint> now) {
        ctx.err().println("feed checkpoints set: nothing changed: the checkpoint was expected at "
                + expected.map(Checkpoint::display).orElse("none") + " but is " + now.map(s -> s.checkpoint().display()
                + " (written " + Output.time(s.committedAt()) + " by " + s.committedBy() + ")").orElse("none")
                + "; look again (run without --yes) and decide on what is there now");
        return FeedCli.PROBLEM;
    }

    private static Optional<Checkpoint> expectation(String text) {
        try {
            return text.trim().equalsIgnoreCase("none") ? Optional.empty() : Optional.of(Checkpoint.parse(text.trim()));
        } catch (IllegalArgumentException e) {
            throw new CliException("--expect '" + text + "' is not a checkpoint: give EPOCH/OFFSET (1/42), a raw checkpoint"
                    + " (1000042), or none", e);
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
        return c < 0 ? positions.distance(p, to, from) + " epoch events back: the group reads them again"
                : positions.distance(p, from, to) + " epoch events forward: the group skips them";
    }
}
