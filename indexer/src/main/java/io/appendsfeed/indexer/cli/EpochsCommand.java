package io.appendsfeed.indexer.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import io.appendsfeed.model.feed.AppendsEpoch.EpochState;
import io.appendsfeed.model.feed.AppendsIndex;
import io.appendsfeed.model.feed.AppendsIndex.IndexState;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedFormatException;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "epochs", mixinStandardHelpOptions = true,
        description = "The active epoch of each partition and, per epoch: epoch events, spans, streams, stream events, bytes, closed or not.")
final class EpochsCommand extends FeedCommand {

    @Option(names = "--partition", paramLabel = "P", description = "only this partition (default: all)")
    Integer partition;

    @Option(names = "--json", description = "print JSON instead of a table")
    boolean json;

    /** An epoch event as stored: where, when it was indexed, its body's size, and the event ({@link AppendsEpoch#decode}). */
    record Entry(Checkpoint position, Instant indexedAt, int bytes, EpochEvent event) {}

    /**
     * Reads a partition's epochs from epoch 0, each ending in {@code Closed} leading to the next; the first that does
     * not must be the one the index names active.
     *
     * @return null, or what is wrong: an epoch event this version cannot read, or epochs not ending at the active one
     */
    static String walk(StoreClient index, IndexState state, PartitionId p, Consumer<EpochId> started, Consumer<Entry> each) {
        for (EpochId e = EpochId.ZERO; ; e = e.next()) {
            started.accept(e);
            boolean closed = false;
            try (Stream<StoredEvent> events = index.read(AppendsEpoch.stream(p, e), Read.forward(0))) {
                for (StoredEvent s : (Iterable<StoredEvent>) events::iterator) {
                    EpochEvent event = AppendsEpoch.decode(s);
                    each.accept(new Entry(Checkpoint.of(e, s.index()), s.timestamp(), s.data() == null ? 0 : s.data().length, event));
                    closed = event instanceof EpochEvent.Closed;
                }
            } catch (FeedFormatException unreadable) {
                return "stopped at an epoch event this version cannot read: " + unreadable.getMessage();
            }
            if (!closed) {
                return e.equals(state.activeEpoch(p)) ? null : "the index names epoch " + state.activeEpoch(p)
                        + " active, but the epochs end (first one not closed) at " + e;
            }
        }
    }

    /** The spans an epoch event lists: an {@code Ingested}'s new streams, then its appends. */
    static List<Span> spans(EpochEvent event) {
        return event instanceof EpochEvent.Ingested i ? Stream.concat(i.add().stream(), i.app().stream()).toList() : List.of();
    }

    /** One epoch's figures: its fold ({@link EpochState}), and the spans it lists and their events. */
    private static final class Summary {
        final PartitionId partition;
        EpochState state;
        long spans;
        long events;
        Instant first;
        Instant last;

        Summary(PartitionId partition, EpochId epoch) {
            this.partition = partition;
            this.state = EpochState.empty(epoch);
        }

        void add(Entry e) {
            state = state.evolve(e.event(), e.bytes(), e.indexedAt());
            first = first == null ? e.indexedAt() : first;
            last = e.indexedAt();
            spans(e.event()).forEach(s -> {
                spans++;
                events += s.count();
            });
        }
    }

    @Override
    public Integer call() {
        try (Connection c = connect(Connection.Use.READ, false)) {
            IndexState state = AppendsIndex.read(c.index());
            List<Summary> epochs = new ArrayList<>();
            List<String> problems = new ArrayList<>();
            for (PartitionId p : partitions(partition, state.partitions())) {
                String problem = walk(c.index(), state, p, e -> epochs.add(new Summary(p, e)), e -> epochs.get(epochs.size() - 1).add(e));
                if (problem != null) {
                    problems.add("partition " + p + ": " + problem);
                }
            }
            Output.Table t = new Output.Table("PARTITION>", "EPOCH>", "ACTIVE", "CLOSED", "ENTRIES>", "SPANS>", "STREAMS>", "EVENTS>", "BYTES>",
                    "FIRST INDEXED", "LAST INDEXED");
            ArrayNode a = Output.array();
            for (Summary e : epochs) {
                EpochId epoch = e.state.epoch();
                boolean active = state.activeEpoch(e.partition).equals(epoch);
                t.row(e.partition, epoch, active ? "*" : "", e.state.isClosed() ? "yes" : "no", e.state.version(), e.spans,
                        e.state.next().size(), e.events, e.state.bytes(), Output.time(e.first), Output.time(e.last));
                a.addObject().put("partition", e.partition.value()).put("epoch", epoch.value()).put("active", active)
                        .put("closed", e.state.isClosed()).put("entries", e.state.version()).put("spans", e.spans)
                        .put("streams", e.state.next().size()).put("events", e.events).put("bytes", e.state.bytes())
                        .put("firstIndexed", e.first == null ? null : e.first.toString())
                        .put("lastIndexed", e.last == null ? null : e.last.toString());
            }
            if (json) {
                Output.json(ctx.out(), a, true);
            } else {
                ctx.out().println("index table '" + c.indexTable() + "': " + Output.plural(state.partitions(), "partition")
                        + (state.isCreated() ? "" : " (no $AppendsIndex-0 yet)"));
                t.print(ctx.out());
            }
            problems.forEach(problem -> ctx.err().println("feed: " + problem));
            return problems.isEmpty() ? FeedCli.OK : FeedCli.PROBLEM;
        }
    }
}
