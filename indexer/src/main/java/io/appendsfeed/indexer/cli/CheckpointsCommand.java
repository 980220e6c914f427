package io.appendsfeed.indexer.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.FeedPositions;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.CheckpointStore.CheckpointOverride;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.DynamoParkedStreams;
import io.appendsfeed.reader.DynamoCheckpointStore.GroupDeletion;
import io.appendsfeed.reader.LeaseStore.Lease;
import io.appendsfeed.reader.CheckpointStore.StoredCheckpoint;
import io.appendsfeed.reader.CheckpointStore.OverrideResult;
import io.appendsfeed.reader.StartPosition;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "checkpoints", mixinStandardHelpOptions = true,
        description = "Every consumer group's checkpoint per partition, with its lag in epoch events and in time.",
        subcommands = {CheckpointsCommand.Set.class, CheckpointsCommand.History.class, CheckpointsCommand.Delete.class})
final class CheckpointsCommand extends FeedCommand {

    @Option(names = "--group", paramLabel = "GROUP", description = "only this consumer group")
    String group;

    @Option(names = "--json", description = "print JSON instead of a table")
    boolean json;

    @Override
    public Integer call() {
        String only = group == null ? null : group(group);
        try (Connection c = connect(Connection.Use.READ, false)) {
            DynamoCheckpointStore store = new DynamoCheckpointStore(c.index(), ctx.clock());
            List<String> known = store.groups();
            int partitions = store.indexState().partitions();
            FeedPositions positions = new FeedPositions(c.index());
            Map<PartitionId, Checkpoint> tails = new HashMap<>(); // read once, for the first group that needs it
            Instant now = ctx.clock().instant();
            Output.Table t = new Output.Table("GROUP", "PARTITION>", "CHECKPOINT>", "TAIL>", "LAG EVENTS>", "LAG TIME>", "COMMITTED", "BY", "LEASE");
            ArrayNode a = Output.array();
            for (String g : only == null ? known : List.of(only)) {
                for (PartitionId p : partitions(null, partitions)) {
                    StoredCheckpoint s = store.read(g, p).orElse(null);
                    Optional<Lease> lease = store.current(g, p);
                    if (s == null && lease.isEmpty()) {
                        continue;
                    }
                    Checkpoint tail = tails.computeIfAbsent(p, positions::tail);
                    Checkpoint at = s == null ? Checkpoint.START : s.checkpoint();
                    long lagEvents = positions.distance(p, at, tail);
                    Duration lagTime = positions.age(p, at, now);
                    // the table shows who holds the partition now; the JSON has every lease, expired ones too
                    t.row(g, p, s == null ? "none" : at.display(), tail.display(), lagEvents, Output.duration(lagTime),
                            s == null ? null : Output.time(s.committedAt()), s == null ? null : s.committedBy(),
                            lease.filter(l -> l.expiresAt().isAfter(now)).map(Lease::owner).orElse(null));
                    ObjectNode o = a.addObject().put("group", g).put("partition", p.value())
                            .put("checkpoint", s == null ? null : at.value()).put("position", s == null ? null : at.display())
                            .put("committedAt", s == null ? null : s.committedAt().toString()).put("committedBy", s == null ? null : s.committedBy())
                            .put("tail", tail.value()).put("lagEvents", lagEvents).put("lagMillis", lagTime.toMillis());
                    lease.ifPresentOrElse(l -> o.putObject("lease").put("owner", l.owner()).put("expiresAt", l.expiresAt().toString())
                            .put("live", l.expiresAt().isAfter(now)), () -> o.putNull("lease"));
                }
            }
            if (only != null && t.isEmpty()) {
                ctx.err().println("feed: group '" + only + "' has no checkpoint in index table '" + c.indexTable() + "'; "
                        + (known.isEmpty() ? "no group has one yet" : "groups with checkpoints: " + String.join(", ", known)));
                return FeedCli.PROBLEM;
            }
            Output.print(ctx.out(), json, a, t, "no consumer group has a checkpoint in index table '" + c.indexTable() + "'");
            return FeedCli.OK;
        }
    }

    @Command(name = "history", mixinStandardHelpOptions = true,
            description = "The explicit moves of a group's checkpoints (by `checkpoints set` or a reader's start position), oldest first,"
                    + " and the group's recorded deletions.")
    static final class History extends FeedCommand {

        @Option(names = "--group", required = true, paramLabel = "GROUP", description = "the consumer group")
        String group;

        @Option(names = "--json", description = "print JSON instead of a table")
        boolean json;

        @Override
        public Integer call() {
            String g = group(group);
            try (Connection c = connect(Connection.Use.READ, false)) {
                DynamoCheckpointStore store = new DynamoCheckpointStore(c.index(), ctx.clock());
                Output.Table t = new Output.Table("AT", "PARTITION>", "FROM>", "TO>", "BY", "REASON");
                ArrayNode a = Output.array();
                for (PartitionId p : partitions(null, store.indexState().partitions())) {
                    for (CheckpointOverride o : store.overrides(g, p)) {
                        t.row(Output.time(o.at()), p, o.from() == null ? "none" : o.from().display(), o.to().display(), o.by(), o.reason());
                        a.addObject().put("at", o.at().toString()).put("partition", p.value())
                                .put("from", o.from() == null ? null : o.from().value()).put("to", o.to().value())
                                .put("by", o.by()).put("reason", o.reason());
                    }
                }
                for (GroupDeletion.Deleted d : store.deletions(g)) {
                    ObjectNode from = a.addObject().put("at", d.at().toString()).put("deleted", true).put("by", d.by())
                            .put("reason", d.reason()).putObject("from");
                    if (d.checkpoints().isEmpty()) {
                        t.row(Output.time(d.at()), null, "none", "deleted", d.by(), d.reason());
                    }
                    d.checkpoints().forEach((p, at) -> {
                        from.put(Integer.toString(p.value()), at.value());
                        t.row(Output.time(d.at()), p, at.display(), "deleted", d.by(), d.reason());
                    });
                }
                Output.print(ctx.out(), json, a, t, "group " + g + ": no checkpoint was ever set explicitly");
                return FeedCli.OK;
            }
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true,
            description = {"Deletes a consumer group: its checkpoints and parked streams, after recording the deletion (who, when,"
                    + " why, and the checkpoints it had) in $ReaderGroups-0, shown by `feed checkpoints history`.",
                    "Shows what would go and changes nothing without --yes. Refused while a reader holds one of its partitions:"
                            + " stop the group's readers first."})
    static final class Delete extends FeedCommand {

        @Option(names = "--group", required = true, paramLabel = "GROUP", description = "the consumer group")
        String group;

        @Option(names = "--reason", paramLabel = "TEXT", defaultValue = "deleted with feed checkpoints delete",
                description = "why; kept in the record of the deletion")
        String reason;

        @Option(names = "--by", paramLabel = "NAME", description = "who deletes it, kept in the record (default: the OS user)")
        String by;

        @Option(names = "--yes", description = "delete (without it nothing is written)")
        boolean yes;

        @Override
        public Integer call() {
            String g = group(group);
            if (reason.isBlank()) {
                throw new CliException("--reason is blank: say why the group goes, e.g. --reason \"typo, never used\"");
            }
            String who = who(by);
            try (Connection c = connect(Connection.Use.WRITE, false)) {
                DynamoCheckpointStore store = new DynamoCheckpointStore(c.index(), ctx.clock());
                List<String> groups = store.groups();
                List<StoredCheckpoint> held = store.list(g);
                if (!groups.contains(g) && held.isEmpty()) {
                    throw new CliException("group '" + g + "' does not exist in index table '" + c.indexTable() + "' ("
                            + (groups.isEmpty() ? "there are no groups" : "groups: " + String.join(", ", groups)) + ")");
                }
                PrintWriter out = ctx.out();
                out.println("group " + g + ": " + (held.isEmpty() ? "no checkpoints" : Output.plural(held.size(), "checkpoint")));
                for (StoredCheckpoint s : held) {
                    out.println("  partition " + s.partition() + ": " + s.checkpoint() + ", committed " + Output.time(s.committedAt())
                            + " by " + s.committedBy());
                }
                out.println("  parked streams: " + new DynamoParkedStreams(c.index(), ctx.clock()).list(g).size());
                out.println("  reason: " + reason);
                out.println("  by:     " + who);
                if (!yes) {
                    out.println("nothing changed: run again with --yes to delete the group");
                    return FeedCli.OK;
                }
                GroupDeletion r = store.deleteGroup(g, reason, who);
                if (r instanceof GroupDeletion.Leased l) {
                    for (Lease lease : l.live()) {
                        ctx.err().println("feed checkpoints delete: partition " + lease.partition() + " of group " + g + " is held by "
                                + lease.owner() + " until " + Output.time(lease.expiresAt()));
                    }
                    ctx.err().println("feed checkpoints delete: nothing changed: stop the group's readers, then run again");
                    return FeedCli.PROBLEM;
                }
                GroupDeletion.Deleted d = (GroupDeletion.Deleted) r;
                out.println("done: group " + g + " deleted (" + d.itemsDeleted() + " items), recorded in " + DynamoCheckpointStore.GROUPS
                        + " (see: feed checkpoints history --group " + g + ")");
                return FeedCli.OK;
            }
        }
    }

    @Command(name = "set", mixinStandardHelpOptions = true,
            description = {"Moves a group's checkpoint in one partition (backwards too) and records why and by whom.",
                    "Shows what would change and changes nothing without --yes. With --yes the write is conditional: it lands only"
                            + " if the checkpoint is still the one shown (or the one given with --expect), so two operators never"
                            + " overwrite each other unseen. A reader holding the partition's lease stops at its next commit and"
                            + " restarts from the new checkpoint."})
    static final class Set extends FeedCommand {

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
            StartPosition position = position("--to", to);
            Optional<Checkpoint> expected = expect == null ? null : expectation(expect); // null: whatever the preview reads now
            if (reason.isBlank()) {
                throw new CliException("--reason is blank: say why the checkpoint moves, e.g. --reason \"replay after fixing bug 123\"");
            }
            String who = who(by);
            try (Connection c = connect(Connection.Use.WRITE, false)) {
                DynamoCheckpointStore store = new DynamoCheckpointStore(c.index(), ctx.clock());
                PartitionId p = partitions(partition, store.indexState().partitions()).get(0);
                List<String> groups = store.groups();
                if (!groups.contains(g) && !createGroup) {
                    throw new CliException("group '" + g + "' has no checkpoint in index table '" + c.indexTable() + "' ("
                            + (groups.isEmpty() ? "no group has one yet" : "groups: " + String.join(", ", groups))
                            + "): check the name, or pass --create-group to start a new group");
                }
                FeedPositions positions = new FeedPositions(c.index());
                Checkpoint target = reachable("--to", positions, p, position);
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
                int direction = seen.map(target::compareTo).orElse(0);
                out.println("  effect: " + (seen.isEmpty() ? "the group starts at " + target.display() + " in this partition"
                        : direction == 0 ? "none"
                        : direction < 0 ? positions.distance(p, target, seen.get()) + " epoch events back: the group reads them again"
                        : positions.distance(p, seen.get(), target) + " epoch events forward: the group skips them"));
                out.println("  reason: " + reason);
                out.println("  by:     " + who);
                if (expected != null && !expected.equals(seen)) {
                    return moved(expected, current);
                }
                if (seen.isPresent() && direction == 0) {
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
                            + FeedStreams.checkpoint(g, p) + " (see: feed checkpoints history --group " + g + ")");
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
    }
}
