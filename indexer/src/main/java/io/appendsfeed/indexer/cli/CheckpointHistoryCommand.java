package io.appendsfeed.indexer.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.CheckpointOverride;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.GroupDeletion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "history", mixinStandardHelpOptions = true,
        description = "The explicit moves of a group's checkpoints (by `checkpoints set` or a reader's start position), oldest first,"
                + " and the group's recorded deletions.")
final class CheckpointHistoryCommand extends FeedCommand {

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
            int partitions = store.indexState().partitions();
            PartitionId only = partition(partition, partitions);
            Table t = new Table("AT", "PARTITION>", "FROM>", "TO>", "BY", "REASON");
            ArrayNode a = Formats.array();
            for (int k = 0; k < partitions; k++) {
                PartitionId p = PartitionId.of(k);
                if (only != null && !only.equals(p)) {
                    continue;
                }
                for (CheckpointOverride o : store.overrides(g, p)) {
                    t.row(Formats.time(o.at()), p, o.from() == null ? "none" : o.from().display(), o.to().display(), o.by(), o.reason());
                    a.addObject().put("at", o.at().toString()).put("partition", p.value())
                            .put("from", o.from() == null ? null : o.from().value()).put("to", o.to().value())
                            .put("by", o.by()).put("reason", o.reason());
                }
            }
            for (GroupDeletion.Deleted d : store.deletions(g)) {
                ObjectNode from = a.addObject().put("at", d.at().toString()).put("deleted", true).put("by", d.by())
                        .put("reason", d.reason()).putObject("from");
                if (d.checkpoints().isEmpty()) {
                    t.row(Formats.time(d.at()), null, "none", "deleted", d.by(), d.reason());
                }
                d.checkpoints().forEach((p, at) -> {
                    from.put(Integer.toString(p.value()), at.value());
                    if (only == null || only.equals(p)) {
                        t.row(Formats.time(d.at()), p, at.display(), "deleted", d.by(), d.reason());
                    }
                });
            }
            if (json) {
                Formats.printJson(ctx.out(), a, true);
            } else if (t.isEmpty()) {
                ctx.out().println("group " + g + ": no checkpoint was ever set explicitly");
            } else {
                t.print(ctx.out());
            }
            ctx.out().flush();
            return FeedCli.OK;
        }
    }
}
