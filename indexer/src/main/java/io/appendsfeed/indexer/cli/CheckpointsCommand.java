package io.appendsfeed.indexer.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.FeedPositions;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.Lease;
import io.appendsfeed.reader.StoredCheckpoint;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "checkpoints", mixinStandardHelpOptions = true,
        description = "Every consumer group's checkpoint per partition, with its lag in epoch events and in time.",
        subcommands = {SetCheckpointCommand.class, CheckpointHistoryCommand.class, DeleteGroupCommand.class})
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
            Checkpoint[] tails = new Checkpoint[partitions];
            Instant now = ctx.clock().instant();
            Table t = new Table("GROUP", "PARTITION>", "CHECKPOINT>", "RAW>", "TAIL>", "LAG EVENTS>", "LAG TIME>", "COMMITTED", "BY", "LEASE");
            ArrayNode a = Formats.array();
            for (String g : only == null ? known : List.of(only)) {
                for (int k = 0; k < partitions; k++) {
                    PartitionId p = PartitionId.of(k);
                    StoredCheckpoint s = store.read(g, p).orElse(null);
                    Optional<Lease> lease = store.current(g, p);
                    if (s == null && lease.isEmpty()) {
                        continue;
                    }
                    if (tails[k] == null) {
                        tails[k] = positions.tail(p);
                    }
                    Checkpoint tail = tails[k];
                    Checkpoint at = s == null ? Checkpoint.START : s.checkpoint();
                    long lagEvents = positions.distance(p, at, tail);
                    Duration lagTime = positions.age(p, at, now);
                    t.row(g, p, s == null ? "none" : at.display(), s == null ? null : at.value(), tail.display(), lagEvents,
                            Formats.duration(lagTime), s == null ? null : Formats.time(s.committedAt()), s == null ? null : s.committedBy(),
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
                ctx.err().println("feed: group '" + only + "' has no checkpoint in index table '" + c.indexTable + "'; "
                        + (known.isEmpty() ? "no group has one yet" : "groups with checkpoints: " + String.join(", ", known)));
                ctx.err().flush();
                return FeedCli.PROBLEM;
            }
            if (json) {
                Formats.printJson(ctx.out(), a, true);
            } else if (t.isEmpty()) {
                ctx.out().println("no consumer group has a checkpoint in index table '" + c.indexTable + "'");
                ctx.out().flush();
            } else {
                t.print(ctx.out());
            }
            return FeedCli.OK;
        }
    }

    private static String lease(Lease l, Instant now) {
        return l.owner() + (l.expiresAt().isAfter(now) ? " (for " + Formats.duration(Duration.between(now, l.expiresAt())) + ")"
                : " (expired " + Formats.duration(Duration.between(l.expiresAt(), now)) + " ago)");
    }
}
