package io.appendsfeed.reader.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedFormatException;
import io.appendsfeed.model.feed.AppendsIndex.IndexState;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.cli.internal.Arguments;
import io.appendsfeed.reader.cli.CliContext;
import io.appendsfeed.reader.cli.Connection;
import io.appendsfeed.reader.cli.internal.EpochSummary;
import io.appendsfeed.reader.cli.internal.EpochWalk;
import io.appendsfeed.reader.cli.Formats;
import io.appendsfeed.reader.cli.Table;
import io.appendsfeed.model.feed.AppendsIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "epochs", mixinStandardHelpOptions = true,
        description = "The active epoch of each partition and, per epoch: epoch events, spans, streams, stream events, bytes, closed or not.")
final class EpochsCommand implements Callable<Integer> {

    private final CliContext ctx;

    @Mixin
    CommonOptions common;

    @Option(names = "--partition", paramLabel = "P", description = "only this partition (default: all)")
    Integer partition;

    @Option(names = "--json", description = "print JSON instead of a table")
    boolean json;

    EpochsCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        try (Connection c = Connection.open(ctx, common.settings(ctx, null), Connection.IndexUse.READ, false)) {
            IndexState state = AppendsIndex.read(c.index());
            PartitionId only = Arguments.partition(partition, state.partitions());
            EpochWalk walk = new EpochWalk(c.index());
            List<EpochSummary> epochs = new ArrayList<>();
            List<String> problems = new ArrayList<>();
            for (int k = 0; k < state.partitions(); k++) {
                PartitionId p = PartitionId.of(k);
                if (only != null && !only.equals(p)) {
                    continue;
                }
                try {
                    EpochId last = walk.walk(p, new EpochWalk.Visitor() {
                        @Override
                        public void epochStarted(PartitionId p, EpochId epoch) {
                            epochs.add(new EpochSummary(p, epoch));
                        }

                        @Override
                        public void entry(PartitionId p, EpochWalk.Entry entry) {
                            epochs.get(epochs.size() - 1).add(entry);
                        }
                    });
                    if (!last.equals(state.activeEpoch(p))) {
                        problems.add("partition " + p + ": the index names epoch " + state.activeEpoch(p)
                                + " active, but the epochs end (first one not closed) at " + last);
                    }
                } catch (FeedFormatException e) {
                    problems.add("partition " + p + ": stopped at an epoch event this version cannot read: " + e.getMessage());
                }
            }
            if (json) {
                printJson(epochs, state);
            } else {
                printTable(epochs, state, c.indexTable());
            }
            for (String problem : problems) {
                ctx.err().println("feed: " + problem);
            }
            ctx.err().flush();
            return problems.isEmpty() ? FeedCli.OK : FeedCli.PROBLEM;
        }
    }

    private void printTable(List<EpochSummary> epochs, IndexState state, String table) {
        ctx.out().println("index table '" + table + "': " + state.partitions() + (state.partitions() == 1 ? " partition" : " partitions")
                + (state.isCreated() ? "" : " (no $AppendsIndex-0 yet)"));
        Table t = new Table("PARTITION>", "EPOCH>", "ACTIVE", "CLOSED", "ENTRIES>", "SPANS>", "STREAMS>", "EVENTS>", "BYTES>",
                "FIRST INDEXED", "LAST INDEXED");
        for (EpochSummary e : epochs) {
            t.row(e.partition, e.epoch, state.activeEpoch(e.partition).equals(e.epoch) ? "*" : "", e.closed() ? "yes" : "no",
                    e.entries(), e.spans, e.streams(), e.events, e.bytes(), Formats.time(e.firstIndexed), Formats.time(e.lastIndexed));
        }
        t.print(ctx.out());
    }

    private void printJson(List<EpochSummary> epochs, IndexState state) {
        ArrayNode a = Formats.object().arrayNode();
        for (EpochSummary e : epochs) {
            a.addObject().put("partition", e.partition.value()).put("epoch", e.epoch.value())
                    .put("active", state.activeEpoch(e.partition).equals(e.epoch)).put("closed", e.closed())
                    .put("entries", e.entries()).put("spans", e.spans).put("streams", e.streams()).put("events", e.events)
                    .put("bytes", e.bytes()).put("firstIndexed", e.firstIndexed == null ? null : e.firstIndexed.toString())
                    .put("lastIndexed", e.lastIndexed == null ? null : e.lastIndexed.toString());
        }
        Formats.printJson(ctx.out(), a);
    }
}
