package io.appendsfeed.indexer.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.FeedPositions;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.CheckpointStore.CheckpointOverride;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.DynamoCheckpointStore.GroupDeletion;
import io.appendsfeed.reader.LeaseStore.Lease;
import io.appendsfeed.reader.CheckpointStore.StoredCheckpoint;
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
        subcommands = {SetCheckpointCommand.class, CheckpointsCommand.History.class, CheckpointsCommand.Delete.class})
final class CheckpointsCommand extends FeedCommand {

    @Option(names = "--group", paramLabel = "GROUP", description = "only this consumer group")
    String group;

    @Option(names = "--json", description = "print JSON instead of a table")
    boolean json;

    @Override
    public Integer call() {
        String only = group == null ? null : group(group);
        try (Connection c = connect(Connection.Use.READ, false)) {
            DynamoCheckpointStore store = c.checkpoints();
            List<String> known = store.groups();
            int partitions = store.indexState().partitions();
            FeedPositions positions = c.positions();
            Map<PartitionId, Checkpoint> tails = new HashMap<>(); // read once, for the first group that needs it
            Instant now = ctx.clock().instant();
            Output.Table t = new Output.Table("GROUP", "PARTITION>", "CHECKPOINT>", "RAW>", "TAIL>", "LAG EVENTS>", "LAG TIME>", "COMMITTED", "BY", "LEASE");
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
                    t.row(g, p, s == null ? "none" : at.display(), s == null ? null : at.value(), tail.display(), lagEvents,
                            Output.duration(lagTime), s == null ? null : Output.time(s.committedAt()), s == null ? null : s.committedBy(),
                            lease.map(l -> lease(l, now)).orElse(null));
                    ObjectNode o = a.addObject().put("group", g).put("partition", p.value());
                    if (s == null) {
                        o.putNull("checkpoint").putNull("position").putNull("committedAt").putNull("committedBy");
                    } else {
                        o.put("checkpoint", at.value()).put("position", at.display()).put("committedAt", s.committedAt().toString())
                                .put("committedBy", s.committedBy());
                    }
                    o.put("tail", tail.value()).put("lagEvents", lagEvents).put("lagMillis", lagTime.toMillis());
                    lease.ifPresentOrElse(l -> o.putObject("lease").put("owner", l.owner()).put("expiresAt", l.expiresAt().toString())
                            .put("live", l.expiresAt().isAfter(now)), () -> o.putNull("lease"));
                }
            }
            if (only != null && t.isEmpty()) {
                ctx.err().println("feed: group '" + only + "' has no checkpoint in index table '" + c.indexTable() + "'; "
                        + (known.isEmpty() ? "no group has one yet" : "groups with checkpoints: " + String.join(", ", known)));
                return FeedCli.PROBLEM;
            }
            if (json) {
                Output.json(ctx.out(), a, true);
            } else if (t.isEmpty()) {
                ctx.out().println("no consumer group has a checkpoint in index table '" + c.indexTable() + "'");
            } else {
                t.print(ctx.out());
            }
            return FeedCli.OK;
        }
    }

    private static String lease(Lease l, Instant now) {
        return l.owner() + (l.expiresAt().isAfter(now) ? " (for " + Output.duration(Duration.between(now, l.expiresAt())) + ")"
                : " (expired " + Output.duration(Duration.between(l.expiresAt(), now)) + " ago)");
    }

    @Command(name = "history", mixinStandardHelpOptions = true,
            description = "The explicit moves of a group's checkpoints (by `checkpoints set` or a reader's start position), oldest first,"
                    + " and the group's recorded deletions.")
    static final class History extends FeedCommand {

        @Option(names = "--group", required = true, paramLabel = "GROUP", description = "the consumer group")
        String group;

        @Option(names = "--partition", paramLabel = "P", description = "only this partition (default: all)")
        Integer partition;

        @Option(names = "--json", description = "print JSON instead of a table")
        boolean json;

        @Override
        public Integer call() {
            String g = group(group);
            try (Connection c = connect(Connection.Use.READ, false)) {
                DynamoCheckpointStore store = c.checkpoints();
                List<PartitionId> shown = partitions(partition, store.indexState().partitions());
                Output.Table t = new Output.Table("AT", "PARTITION>", "FROM>", "TO>", "BY", "REASON");
                ArrayNode a = Output.array();
                for (PartitionId p : shown) {
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
                        if (shown.contains(p)) {
                            t.row(Output.time(d.at()), p, at.display(), "deleted", d.by(), d.reason());
                        }
                    });
                }
                if (json) {
                    Output.json(ctx.out(), a, true);
                } else if (t.isEmpty()) {
                    ctx.out().println("group " + g + ": no checkpoint was ever set explicitly");
                } else {
                    t.print(ctx.out());
                }
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
                DynamoCheckpointStore store = c.checkpoints();
                List<String> groups = store.groups();
                List<StoredCheckpoint> held = store.list(g);
                if (!groups.contains(g) && held.isEmpty()) {
                    throw new CliException("group '" + g + "' does not exist in index table '" + c.indexTable() + "' ("
                            + (groups.isEmpty() ? "there are no groups" : "groups: " + String.join(", ", groups)) + ")");
                }
                PrintWriter out = ctx.out();
                out.println("group " + g + ": " + (held.isEmpty() ? "no checkpoints" : held.size() + (held.size() == 1 ? " checkpoint" : " checkpoints")));
                for (StoredCheckpoint s : held) {
                    out.println("  partition " + s.partition() + ": " + s.checkpoint() + ", committed " + Output.time(s.committedAt())
                            + " by " + s.committedBy());
                }
                out.println("  parked streams: " + c.parked().list(g).size());
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
}
