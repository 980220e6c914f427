package io.appendsfeed.indexer.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.EpochPage;
import io.appendsfeed.model.feed.EpochReader;
import io.appendsfeed.model.feed.EpochRecord;
import io.appendsfeed.model.feed.FeedFormatException;
import io.appendsfeed.model.feed.FeedPositions;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.reader.StartPosition;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "tail", mixinStandardHelpOptions = true,
        description = {"Prints spans as they are indexed, one line each (or JSON lines), until Ctrl-C, --max or --until-caught-up.",
                "Line: PARTITION EPOCH/OFFSET INDEXED-AT STREAM@FIRST-INDEX [TYPES]"})
final class TailCommand extends FeedCommand {

    private static final int PAGE_ENTRIES = 100;
    /** How often the tail looks for new epoch events once caught up. */
    private static final Duration POLL_INTERVAL = Duration.ofMillis(500);

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

    @Override
    public Integer call() {
        StartPosition start = position("--from", from);
        if (max != null && max < 1) {
            throw new CliException("--max " + max + ": give at least 1");
        }
        try (Connection c = connect(Connection.Use.READ, false)) {
            FeedPositions positions = new FeedPositions(c.index());
            Map<PartitionId, Checkpoint> at = new LinkedHashMap<>();
            for (PartitionId p : partitions(partition, positions.partitions())) {
                // waiting at a position the feed never reaches would print nothing, forever
                at.put(p, reachable("--from", positions, p, start));
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
                        return FeedCli.PROBLEM;
                    }
                    // caught up on an empty read, or one that took the tail with it; a short page may
                    // end before an event it could not read, or at a lagging replica's hole
                    if (!page.tail()) {
                        caughtUp = false;
                    }
                    for (EpochRecord r : page.records()) {
                        for (Span s : EpochsCommand.spans(r.event())) {
                            if (categories != null && !categories.isEmpty() && !categories.contains(s.stream().category())) {
                                continue;
                            }
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
                    LockSupport.parkNanos(POLL_INTERVAL.toNanos());
                    if (Thread.interrupted()) {
                        return FeedCli.OK;
                    }
                }
            }
        }
    }

    private void print(PartitionId p, EpochRecord r, Span s) {
        if (json) {
            ObjectNode o = Output.object().put("partition", p.value()).put("checkpoint", r.position().value())
                    .put("position", r.position().display())
                    .put("indexedAt", r.indexedAt() == null ? null : r.indexedAt().toString())
                    .put("stream", s.stream().value()).put("index", s.index());
            s.types().forEach(o.putArray("types")::add);
            Output.json(ctx.out(), o, false);
        } else {
            ctx.out().println(p + " " + r.position().display() + " " + r.indexedAt() + " " + s.stream() + "@" + s.index() + " " + s.types());
            ctx.out().flush();
        }
    }
}
