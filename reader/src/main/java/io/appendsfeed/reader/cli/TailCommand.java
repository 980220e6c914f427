package io.appendsfeed.reader.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.FeedFormatException;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.reader.StartPosition;
import io.appendsfeed.reader.cli.internal.Arguments;
import io.appendsfeed.reader.cli.CliContext;
import io.appendsfeed.reader.cli.Connection;
import io.appendsfeed.reader.cli.Formats;
import io.appendsfeed.reader.cli.internal.PositionArgument;
import io.appendsfeed.reader.cli.UsageException;
import io.appendsfeed.model.feed.EpochPage;
import io.appendsfeed.model.feed.EpochReader;
import io.appendsfeed.model.feed.EpochRecord;
import io.appendsfeed.model.feed.FeedPositions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "tail", mixinStandardHelpOptions = true,
        description = {"Prints spans as they are indexed, one line each (or JSON lines), until Ctrl-C, --max or --until-caught-up.",
                "Line: PARTITION EPOCH/OFFSET INDEXED-AT STREAM@FIRST-INDEX [TYPES]"})
final class TailCommand implements Callable<Integer> {

    private static final int PAGE_ENTRIES = 100;

    private final CliContext ctx;

    @Mixin
    CommonOptions common;

    @Option(names = "--from", paramLabel = "POSITION", defaultValue = "tail",
            description = "where to start in each partition: raw checkpoint, EPOCH/OFFSET, start, tail (default), or time:ISO-8601")
    String from;

    @Option(names = "--category", paramLabel = "CATEGORY", description = "only streams of this category (repeatable)")
    Set<String> categories;

    @Option(names = "--partition", paramLabel = "P", description = "only this partition (default: all)")
    Integer partition;

    @Option(names = "--json", description = "print JSON lines")
    boolean json;

    @Option(names = "--max", paramLabel = "N", description = "stop after N spans")
    Long max;

    @Option(names = "--until-caught-up", description = "stop once every partition is read to its tail")
    boolean untilCaughtUp;

    @Option(names = "--poll", paramLabel = "DURATION", defaultValue = "500ms",
            description = "how often to look for new epoch events at the tail: 500ms, 5s, 2m or ISO-8601 (default 500ms)")
    Duration poll;

    TailCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        StartPosition start = PositionArgument.parse("--from", from);
        if (max != null && max < 1) {
            throw new UsageException("--max " + max + ": give at least 1");
        }
        if (poll.isNegative() || poll.isZero()) {
            throw new UsageException("--poll " + poll + ": give a positive duration, e.g. 500ms");
        }
        try (Connection c = Connection.open(ctx, common.settings(ctx, null), Connection.IndexUse.READ, false)) {
            FeedPositions positions = c.positions();
            int partitions = positions.partitions();
            PartitionId only = Arguments.partition(partition, partitions);
            Map<PartitionId, Checkpoint> at = new LinkedHashMap<>();
            for (int k = 0; k < partitions; k++) {
                PartitionId p = PartitionId.of(k);
                if (only == null || only.equals(p)) {
                    Checkpoint first = PositionArgument.locate(positions, p, start);
                    // waiting at a position the feed never reaches would print nothing, forever
                    PositionArgument.checkReachable("--from", positions, p, first);
                    at.put(p, first);
                }
            }
            EpochReader reader = new EpochReader(c.index());
            long printed = 0;
            while (true) {
                boolean caughtUp = true;
                for (Map.Entry<PartitionId, Checkpoint> e : at.entrySet()) {
                    EpochPage page;
                    try {
                        page = reader.read(e.getKey(), e.getValue(), PAGE_ENTRIES);
                    } catch (FeedFormatException unreadable) {
                        ctx.err().println("feed: partition " + e.getKey() + " stops at " + e.getValue()
                                + ", an epoch event this version cannot read (written by a newer version? upgrade): "
                                + unreadable.getMessage());
                        ctx.err().flush();
                        return FeedCli.PROBLEM;
                    }
                    // caught up on an empty read, or one that took the tail with it; a short page may
                    // end before an event it could not read, or at a lagging replica's hole
                    if (!page.tail()) {
                        caughtUp = false;
                    }
                    for (EpochRecord r : page.records()) {
                        for (Span s : spans(r)) {
                            print(e.getKey(), r, s);
                            if (max != null && ++printed >= max) {
                                return FeedCli.OK;
                            }
                        }
                        e.setValue(r.next());
                    }
                }
                if (caughtUp) {
                    if (untilCaughtUp) {
                        return FeedCli.OK;
                    }
                    LockSupport.parkNanos(poll.toNanos());
                    if (Thread.interrupted()) {
                        return FeedCli.OK;
                    }
                }
            }
        }
    }

    private List<Span> spans(EpochRecord r) {
        List<Span> out = new ArrayList<>();
        if (r.event() instanceof EpochEvent.Ingested i) {
            for (Span s : i.add()) {
                keep(out, s);
            }
            for (Span s : i.app()) {
                keep(out, s);
            }
        }
        return out;
    }

    private void keep(List<Span> out, Span s) {
        if (categories == null || categories.isEmpty() || categories.contains(s.stream().category())) {
            out.add(s);
        }
    }

    private void print(PartitionId p, EpochRecord r, Span s) {
        if (json) {
            ObjectNode o = Formats.object().put("partition", p.value()).put("checkpoint", r.position().value())
                    .put("position", r.position().display())
                    .put("indexedAt", r.indexedAt() == null ? null : r.indexedAt().toString())
                    .put("stream", s.stream().value()).put("index", s.index());
            s.types().forEach(o.putArray("types")::add);
            Formats.printJsonLine(ctx.out(), o);
        } else {
            ctx.out().println(p + " " + r.position().display() + " " + r.indexedAt() + " " + s.stream() + "@" + s.index() + " " + s.types());
            ctx.out().flush();
        }
    }
}
