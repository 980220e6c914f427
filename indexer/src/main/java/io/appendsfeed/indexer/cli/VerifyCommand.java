package io.appendsfeed.indexer.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.appendsfeed.indexer.cli.CoverageCheck.Problem;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.AppendsIndex;
import io.appendsfeed.model.feed.AppendsIndex.IndexState;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreItem;
import io.appendsfeed.model.store.StoreScan;
import io.appendsfeed.model.store.Tip;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Scans the store table (Tips only, no bodies, in parallel) and checks the index against it:",
                "every stored event indexed exactly once, in order, in its stream's partition.",
                "Reports each problem (stream, expected, found) and a summary; exits 1 when it finds any."})
final class VerifyCommand extends FeedCommand {

    private static final int PROGRESS_EVERY = 100_000;

    @Option(names = "--segments", paramLabel = "N", defaultValue = "4", description = "parallel Scan segments (default 4)")
    int segments;

    @Option(names = "--json", description = "print the report as JSON")
    boolean json;

    @Override
    public Integer call() {
        if (segments < 1 || segments > 1000) {
            throw new CliException("--segments " + segments + ": give 1 to 1000");
        }
        try (Connection c = connect(Connection.Use.READ, true)) {
            Map<StreamName, Long> versions = new ConcurrentHashMap<>(); // each stream's version (event count), $ streams left out
            AtomicLong scanned = new AtomicLong(); // Tips and calves: the Scan's filter drops calves after reading them
            AtomicLong tips = new AtomicLong();
            String scanning = "scanning store table '" + c.storeTable() + "'";
            long started = System.nanoTime();
            new StoreScan(c.dynamo(), c.storeTable(), segments, 0, true).run(item -> {
                if (item instanceof StoreItem.Tip t) {
                    versions.put(t.stream(), t.next());
                    progress(scanning, tips.incrementAndGet(), scanned);
                } else if (item instanceof StoreItem.Malformed m) {
                    throw new IllegalStateException("table " + c.storeTable() + ": the item " + m.key() + " is not of the store format ("
                            + m.problem() + "); is this a store table?");
                }
            }, scanned);
            Duration scanTime = Duration.ofNanos(System.nanoTime() - started);
            ctx.err().println(scanning + ": " + scanned.get() + " items in " + Output.duration(scanTime));
            IndexState state = AppendsIndex.read(c.index());
            CoverageCheck check = new CoverageCheck(state.partitions());
            List<Problem> problems = new ArrayList<>();
            AtomicLong entries = new AtomicLong();
            AtomicLong epochs = new AtomicLong();
            String reading = "reading index table '" + c.indexTable() + "'";
            started = System.nanoTime();
            for (PartitionId p : partitions(null, state.partitions())) {
                String problem = EpochsCommand.walk(c.index(), state, p, e -> epochs.incrementAndGet(), e -> {
                    progress(reading, entries.incrementAndGet(), entries);
                    EpochsCommand.spans(e.event()).forEach(s -> check.span(p, e.position(), s));
                });
                if (problem != null) {
                    problems.add(new Problem(Problem.Kind.BAD_EPOCH, null, p, null, "epochs this version can read, ending at the"
                            + " active epoch " + state.activeEpoch(p), problem));
                }
            }
            Duration indexTime = Duration.ofNanos(System.nanoTime() - started);
            ctx.err().println(reading + ": " + entries.get() + " items in " + Output.duration(indexTime));
            StoreClient store = new StoreClient(c.dynamo(), StoreConfig.builder(c.storeTable()).build());
            problems.addAll(check.finish(versions, s -> store.readTip(s, true).map(Tip::version).orElse(null)));
            problems.sort(Comparator.comparing((Problem p) -> p.stream() == null ? "" : p.stream()).thenComparing(Problem::kind));
            long storeEvents = versions.values().stream().mapToLong(Long::longValue).sum();
            if (json) {
                ObjectNode o = Output.object().put("ok", problems.isEmpty());
                ArrayNode a = o.putArray("problems");
                for (Problem p : problems) {
                    a.addObject().put("kind", p.kind().name()).put("stream", p.stream())
                            .put("partition", p.partition() == null ? null : p.partition().value())
                            .put("position", p.position() == null ? null : p.position().value())
                            .put("expected", p.expected()).put("found", p.found());
                }
                o.putObject("store").put("itemsScanned", scanned.get()).put("streams", versions.size()).put("events", storeEvents)
                        .put("millis", scanTime.toMillis());
                o.putObject("index").put("partitions", state.partitions()).put("epochs", epochs.get()).put("epochEvents", entries.get())
                        .put("spans", check.spans()).put("events", check.events()).put("millis", indexTime.toMillis());
                Output.json(ctx.out(), o, true);
                return problems.isEmpty() ? FeedCli.OK : FeedCli.PROBLEM;
            }
            PrintWriter out = ctx.out();
            if (!problems.isEmpty()) {
                Output.Table t = new Output.Table("PROBLEM", "STREAM", "PARTITION>", "AT>", "EXPECTED", "FOUND");
                problems.forEach(p -> t.row(p.kind(), p.stream(), p.partition(), p.position() == null ? null : p.position().display(),
                        p.expected(), p.found()));
                t.print(out);
                out.println();
            }
            out.println("store: " + scanned.get() + " items scanned, " + versions.size() + " streams, " + storeEvents + " events in "
                    + Output.duration(scanTime));
            out.println("index: " + Output.plural(state.partitions(), "partition") + ", " + Output.plural(epochs.get(), "epoch") + ", " + entries.get()
                    + " epoch events, " + check.spans() + " spans, " + check.events() + " events in " + Output.duration(indexTime));
            if (problems.isEmpty()) {
                out.println("OK: every stored event is indexed once, in order, in its stream's partition");
            } else {
                Map<Problem.Kind, Integer> counts = new EnumMap<>(Problem.Kind.class);
                problems.forEach(p -> counts.merge(p.kind(), 1, Integer::sum));
                out.println(Output.plural(problems.size(), "problem") + ": " + String.join(", ",
                        counts.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList()));
                if (counts.containsKey(Problem.Kind.NOT_INDEXED) || counts.containsKey(Problem.Kind.MISSING_STREAM)) {
                    out.println("NOT_INDEXED / MISSING_STREAM can also mean the indexer is behind the writers: run verify again to tell");
                }
            }
            return problems.isEmpty() ? FeedCli.OK : FeedCli.PROBLEM;
        }
    }

    /** A line on stderr at every {@value #PROGRESS_EVERY}th stream or epoch event, so that a long step shows it moves. */
    private void progress(String step, long n, AtomicLong items) {
        if (n % PROGRESS_EVERY == 0) {
            ctx.err().println(step + ": " + items.get() + " items so far");
            ctx.err().flush();
        }
    }
}
