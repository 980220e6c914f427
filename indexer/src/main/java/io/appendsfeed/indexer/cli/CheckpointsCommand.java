package io.appendsfeed.indexer.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.Lease;
import io.appendsfeed.reader.StoredCheckpoint;
import io.appendsfeed.indexer.cli.internal.Arguments;
import io.appendsfeed.indexer.cli.CliContext;
import io.appendsfeed.indexer.cli.Connection;
import io.appendsfeed.indexer.cli.Formats;
import io.appendsfeed.indexer.cli.Table;
import io.appendsfeed.model.feed.FeedPositions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "checkpoints", mixinStandardHelpOptions = true,
        description = "Every consumer group's checkpoint per partition, with its lag in epoch events and in time.",
        subcommands = {SetCheckpointCommand.class, CheckpointHistoryCommand.class, DeleteGroupCommand.class})
final class CheckpointsCommand implements Callable<Integer> {

    private final CliContext ctx;

    @Mixin
    CommonOptions common;

    @Option(names = "--group", paramLabel = "GROUP", description = "only this consumer group")
    String group;

    @Option(names = "--json", description = "print JSON instead of a table")
    boolean json;

    CheckpointsCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    /** One group in one partition; {@code checkpoint} null when the group never committed there. */
    private record Row(String group, PartitionId partition, StoredCheckpoint checkpoint, Checkpoint tail, long lagEvents,
                       Duration lagTime, Optional<Lease> lease) {}

    @Override
    public Integer call() {
        String only = group == null ? null : Arguments.group(group);
        try (Connection c = Connection.open(ctx, common.settings(ctx, null), Connection.IndexUse.READ, false)) {
            DynamoCheckpointStore store = c.checkpoints();
            List<String> known = store.groups();
            List<String> groups = only == null ? known : List.of(only);
            int partitions = store.indexState().partitions();
            FeedPositions positions = c.positions();
            Map<PartitionId, Checkpoint> tails = new HashMap<>();
            Instant now = ctx.clock().instant();
            List<Row> rows = new ArrayList<>();
            for (String g : groups) {
                for (int k = 0; k < partitions; k++) {
                    PartitionId p = PartitionId.of(k);
                    Optional<StoredCheckpoint> stored = store.read(g, p);
                    Optional<Lease> lease = store.current(g, p);
                    if (stored.isEmpty() && lease.isEmpty()) {
                        continue;
                    }
                    Checkpoint tail = tails.computeIfAbsent(p, positions::tail);
                    Checkpoint at = stored.map(StoredCheckpoint::checkpoint).orElse(Checkpoint.START);
                    rows.add(new Row(g, p, stored.orElse(null), tail, positions.distance(p, at, tail),
                            positions.age(p, at, now), lease));
                }
            }
            if (only != null && rows.isEmpty()) {
                ctx.err().println("feed: group '" + only + "' has no checkpoint in index table '" + c.indexTable() + "'; "
                        + (known.isEmpty() ? "no group has one yet" : "groups with checkpoints: " + String.join(", ", known)));
                ctx.err().flush();
                return FeedCli.PROBLEM;
            }
            if (json) {
                printJson(rows, now);
            } else if (rows.isEmpty()) {
                ctx.out().println("no consumer group has a checkpoint in index table '" + c.indexTable() + "'");
                ctx.out().flush();
            } else {
                printTable(rows, now);
            }
            return FeedCli.OK;
        }
    }

    private void printTable(List<Row> rows, Instant now) {
        Table t = new Table("GROUP", "PARTITION>", "CHECKPOINT>", "RAW>", "TAIL>", "LAG EVENTS>", "LAG TIME>",
                "COMMITTED", "BY", "LEASE");
        for (Row r : rows) {
            StoredCheckpoint s = r.checkpoint();
            t.row(r.group(), r.partition(), s == null ? "none" : s.checkpoint().display(), s == null ? null : s.checkpoint().value(),
                    r.tail().display(), r.lagEvents(), Formats.duration(r.lagTime()),
                    s == null ? null : Formats.time(s.committedAt()), s == null ? null : s.committedBy(), lease(r.lease(), now));
        }
        t.print(ctx.out());
    }

    private static String lease(Optional<Lease> lease, Instant now) {
        if (lease.isEmpty()) {
            return null;
        }
        Lease l = lease.get();
        return l.owner() + (l.expiresAt().isAfter(now) ? " (for " + Formats.duration(Duration.between(now, l.expiresAt())) + ")"
                : " (expired " + Formats.duration(Duration.between(l.expiresAt(), now)) + " ago)");
    }

    private void printJson(List<Row> rows, Instant now) {
        ArrayNode a = Formats.object().arrayNode();
        for (Row r : rows) {
            ObjectNode o = a.addObject().put("group", r.group()).put("partition", r.partition().value());
            StoredCheckpoint s = r.checkpoint();
            if (s == null) {
                o.putNull("checkpoint").putNull("position").putNull("committedAt").putNull("committedBy");
            } else {
                o.put("checkpoint", s.checkpoint().value()).put("position", s.checkpoint().display())
                        .put("committedAt", s.committedAt().toString()).put("committedBy", s.committedBy());
            }
            o.put("tail", r.tail().value()).put("lagEvents", r.lagEvents()).put("lagMillis", r.lagTime().toMillis());
            if (r.lease().isPresent()) {
                o.putObject("lease").put("owner", r.lease().get().owner()).put("expiresAt", r.lease().get().expiresAt().toString())
                        .put("live", r.lease().get().expiresAt().isAfter(now));
            } else {
                o.putNull("lease");
            }
        }
        Formats.printJson(ctx.out(), a);
    }
}
