package io.appendsfeed.indexer.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.CheckpointOverride;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.GroupDeletion;
import io.appendsfeed.indexer.cli.internal.Arguments;
import io.appendsfeed.indexer.cli.CliContext;
import io.appendsfeed.indexer.cli.Connection;
import io.appendsfeed.indexer.cli.Formats;
import io.appendsfeed.indexer.cli.Table;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "history", mixinStandardHelpOptions = true,
        description = "The explicit moves of a group's checkpoints (by `checkpoints set` or a reader's start position), oldest first,"
                + " and the group's recorded deletions.")
final class CheckpointHistoryCommand implements Callable<Integer> {

    private final CliContext ctx;

    @ParentCommand
    CheckpointsCommand parent;

    @Mixin
    CommonOptions common;

    @Option(names = "--group", required = true, paramLabel = "GROUP", description = "the consumer group")
    String group;

    @Option(names = "--partition", paramLabel = "P", description = "only this partition (default: all)")
    Integer partition;

    @Option(names = "--json", description = "print JSON instead of a table")
    boolean json;

    CheckpointHistoryCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        String g = Arguments.group(group);
        try (Connection c = Connection.open(ctx, common.settings(ctx, parent.common), Connection.IndexUse.READ, false)) {
            DynamoCheckpointStore store = c.checkpoints();
            int partitions = store.indexState().partitions();
            PartitionId only = Arguments.partition(partition, partitions);
            Table t = new Table("AT", "PARTITION>", "FROM>", "TO>", "BY", "REASON");
            ArrayNode a = Formats.object().arrayNode();
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
                if (d.checkpoints().isEmpty()) {
                    t.row(Formats.time(d.at()), null, "none", "deleted", d.by(), d.reason());
                }
                d.checkpoints().forEach((p, from) -> {
                    if (only == null || only.equals(p)) {
                        t.row(Formats.time(d.at()), p, from.display(), "deleted", d.by(), d.reason());
                    }
                });
                a.addObject().put("at", d.at().toString()).put("deleted", true).put("by", d.by()).put("reason", d.reason())
                        .set("from", Formats.object().setAll(d.checkpoints().entrySet().stream().collect(java.util.stream.Collectors.toMap(
                                e -> Integer.toString(e.getKey().value()),
                                e -> (com.fasterxml.jackson.databind.JsonNode) Formats.object().numberNode(e.getValue().value())))));
            }
            if (json) {
                Formats.printJson(ctx.out(), a);
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
