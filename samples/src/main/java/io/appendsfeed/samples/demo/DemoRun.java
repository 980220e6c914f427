package io.appendsfeed.samples.demo;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.metrics.MicrometerMetrics;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.CheckpointStore.StoredCheckpoint;
import io.appendsfeed.reader.StreamHandler;
import io.appendsfeed.indexer.cli.FeedCli;
import io.appendsfeed.samples.demo.FeedTally.StreamCounter;
import io.appendsfeed.samples.bank.AccountEvent;
import io.appendsfeed.samples.bank.Accounts;
import io.appendsfeed.samples.bank.InMemoryOutbox;
import io.appendsfeed.samples.bank.OverdraftNotifier;
import io.appendsfeed.samples.local.LocalEnvironment;
import io.appendsfeed.samples.local.LocalFeed;
import io.appendsfeed.samples.projector.BalanceProjector;
import io.appendsfeed.samples.projector.BalanceTable;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** One run of the demo: starts everything, writes, waits for the feed and reactors, checks, reports. */
final class DemoRun {

    static final String STORE_TABLE = "demo-events";
    static final String INDEX_TABLE = "demo-index";
    static final String BALANCE_TABLE = "demo-balances";
    static final List<String> GROUPS = List.of("audit", "notifier", "balances");

    /** A consumer group counting what its handler got through; a {@code complete} one sees every event, others filter. */
    record Reactor(String group, boolean complete, StreamCounter handled, FeedReader reader) implements AutoCloseable {

        static Reactor start(DynamoDbClient dynamo, FeedReaderConfig config, StreamHandler handler) {
            StreamCounter handled = new StreamCounter(false);
            FeedReader reader = new FeedReader(dynamo, config, (stream, events) -> {
                HandlerResult result = handler.handle(stream, events);
                handled.record(stream, events.get(0).index(), events.size());
                return result;
            });
            reader.start();
            return new Reactor(config.group(), config.eventTypes().isEmpty() && config.categories().isEmpty(), handled, reader);
        }

        /** Stops reading and commits what was handled. */
        @Override
        public void close() {
            reader.close();
        }
    }

    private final Demo o;
    private final PrintStream out;
    /** What the indexer and the readers report; printed at the end. */
    private final MicrometerMetrics metrics = new MicrometerMetrics(new SimpleMeterRegistry());
    private final long started = System.nanoTime();

    DemoRun(Demo options, PrintStream out) {
        this.o = options;
        this.out = out;
    }

    /** @return whether everything agrees; at the end the reactors stop (committing), then the poller, then DynamoDB Local */
    boolean run() throws InterruptedException {
        InMemoryOutbox outbox = new InMemoryOutbox();
        try (LocalEnvironment server = LocalEnvironment.start();
             LocalFeed local = LocalFeed.start(server.dynamo(), server.streams(), STORE_TABLE, INDEX_TABLE, o.partitions, metrics);
             // counts every event from the feed alone (types only: no store reads)
             Reactor audit = Reactor.start(server.dynamo(), readerConfig("audit").loadBodies(false).build(),
                     (s, events) -> HandlerResult.handled());
             // only Overdrawn events reach it: the others are filtered out before any body is read
             Reactor notifier = Reactor.start(server.dynamo(), readerConfig("notifier")
                     .eventTypes(Set.of(AccountEvent.Overdrawn.class.getSimpleName())).build(), new OverdraftNotifier(outbox));
             Reactor balances = Reactor.start(server.dynamo(), readerConfig("balances").build(),
                     new BalanceProjector(new BalanceTable(server.dynamo(), BALANCE_TABLE).ensure(), local.store()))) {
            return run(server, local, List.of(audit, notifier, balances), outbox);
        }
    }

    private boolean run(LocalEnvironment server, LocalFeed local, List<Reactor> reactors, InMemoryOutbox outbox)
            throws InterruptedException {
        DynamoDbClient dynamo = server.dynamo();
        StoreClient store = local.store();
        out.printf("DynamoDB Local %s (in this process, in memory); tables %s (store), %s (index), %s (query table)%n",
                server.endpoint(), STORE_TABLE, INDEX_TABLE, BALANCE_TABLE);
        FeedTally feed = new FeedTally(local.index(), o.partitions);
        out.printf("writing %,d events to %,d accounts with %d writers; indexing live into %d partition(s); reactors: %s%n",
                o.events, o.streams, o.writers, o.partitions, String.join(", ", GROUPS));

        Workload workload = new Workload(new Accounts(store), new Workload.Plan(o.events, o.streams, o.writers, o.duration, o.seed));
        long writingStarted = System.nanoTime();
        workload.run(() -> {
            feed.refresh();
            progress(workload, feed, reactors);
        });
        Duration writing = Duration.ofNanos(System.nanoTime() - writingStarted);
        Duration caughtUpAfter = catchUp(workload, feed, reactors, outbox);
        awaitCommits(new DynamoCheckpointStore(dynamo, INDEX_TABLE, Clock.systemUTC()), feed);

        Agreement.Verdict verdict = Agreement.verdict(workload, feed, reactors, outbox, new BalanceTable(dynamo, BALANCE_TABLE), store,
                IntStream.range(0, o.streams).mapToObj(Workload::account).toList(), caughtUpAfter != null, o.timeout);
        summary(workload, feed, reactors, outbox, writing, caughtUpAfter, verdict);
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!MetricsReport.lagSampledAtZero(metrics, GROUPS.size() * o.partitions) && System.nanoTime() < deadline) {
            Thread.sleep(100); // the readers sample their lag every second: wait for a sample taken after they caught up
        }
        MetricsReport.print(metrics, out);
        out.println();
        out.println("$ feed checkpoints --endpoint " + server.endpoint() + " --index-table " + INDEX_TABLE);
        boolean viewed = checkpointsView(server) == FeedCli.OK;
        return verdict.report().agrees() && viewed;
    }

    /** Runs the {@code feed} CLI's checkpoints view in this process; its exit code (1 when it found a problem). */
    private int checkpointsView(LocalEnvironment server) {
        PrintWriter writer = new PrintWriter(out, true, StandardCharsets.UTF_8);
        int code = FeedCli.commandLine(name -> null, writer, writer)
                .execute("checkpoints", "--endpoint", server.endpoint().toString(), "--index-table", INDEX_TABLE);
        writer.flush();
        if (code != FeedCli.OK) {
            out.println("RESULT: feed checkpoints reported a problem (exit code " + code + ")");
        }
        return code;
    }

    private FeedReaderConfig.Builder readerConfig(String group) {
        return FeedReaderConfig.builder(group, INDEX_TABLE, STORE_TABLE)
                .owner("demo-" + group)
                .pollInterval(Duration.ofMillis(200)) // at the tail: 3 groups x partitions reads of the index every 200 ms
                .commitInterval(Duration.ofSeconds(1))
                .metrics(metrics)
                .lagLogInterval(Duration.ofSeconds(1)); // how often lag is sampled (and logged, at INFO: not shown here)
    }

    /** @return how long after the last write everything was indexed and handled; null when not within the timeout */
    private Duration catchUp(Workload workload, FeedTally feed, List<Reactor> reactors, InMemoryOutbox outbox)
            throws InterruptedException {
        long start = System.nanoTime();
        for (int polls = 1; ; polls++) {
            feed.refresh();
            long target = workload.written();
            boolean caughtUp = feed.events() >= target && outbox.published().size() >= workload.overdrafts()
                    && reactors.stream().filter(Reactor::complete).allMatch(r -> r.handled().total() >= target);
            boolean timedOut = System.nanoTime() > start + o.timeout.toNanos();
            if (caughtUp || timedOut || polls % 20 == 0) { // 20 polls: about a second
                progress(workload, feed, reactors);
            }
            if (caughtUp || timedOut) {
                return caughtUp ? Duration.ofNanos(System.nanoTime() - start) : null;
            }
            Thread.sleep(50); // polling DynamoDB Local; the feed has no push
        }
    }

    /** Waits (a few commit intervals at most) until every group has committed the feed's tail. */
    private void awaitCommits(DynamoCheckpointStore checkpoints, FeedTally feed) throws InterruptedException {
        List<Checkpoint> tails = feed.tails();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline && !GROUPS.stream().allMatch(g -> {
            List<StoredCheckpoint> cs = checkpoints.list(g);
            return cs.size() == tails.size() && cs.stream().allMatch(c -> c.checkpoint().compareTo(tails.get(c.partition().value())) >= 0);
        })) {
            Thread.sleep(100);
        }
    }

    /** One line: what has been written, indexed and handled so far. */
    private void progress(Workload workload, FeedTally feed, List<Reactor> reactors) {
        StringBuilder b = new StringBuilder(String.format("%6.1fs  written %,8d  indexed %,8d",
                (System.nanoTime() - started) / 1e9, workload.written(), feed.events()));
        for (Reactor r : reactors) {
            b.append(String.format(r.complete() ? "  %s %,8d" : "  %s %,d", r.group(), r.handled().total()));
        }
        out.println(b.append(String.format("  conflicts %,d  rejected %,d", workload.conflicts(), workload.rejected())));
    }

    private void summary(Workload workload, FeedTally feed, List<Reactor> reactors, InMemoryOutbox outbox, Duration writing,
                         Duration caughtUpAfter, Agreement.Verdict verdict) {
        double seconds = Math.max(1e-9, writing.toNanos() / 1e9);
        out.println();
        out.printf("Summary (%.1f s in all)%n", (System.nanoTime() - started) / 1e9);
        out.printf("  wrote    %,d events to %,d accounts in %.1f s: %,.0f events/s (%,d commands by %d writers;"
                        + " %,d rejected by the overdraft limit; %,d conflicts retried)%n",
                workload.written(), workload.tally().perStream().size(), seconds, workload.written() / seconds,
                workload.commands(), o.writers, workload.rejected(), workload.conflicts());
        out.printf("  indexed  %,d events into %d partition(s), %s%n", feed.events(), o.partitions,
                caughtUpAfter == null ? "NOT caught up within --timeout " + o.timeout
                        : String.format("all in the feed and handled %.1f s after the last write", caughtUpAfter.toNanos() / 1e9));
        for (Reactor r : reactors) {
            out.printf("  handled  %-9s %,d %s (%,d delivered again after a retry or restart)%n", r.group(),
                    r.handled().total(), r.complete() ? "events" : "Overdrawn events", r.handled().repeats());
        }
        out.printf("  notifier published %,d overdraft notifications (%,d Overdrawn events in the store; %,d duplicates refused)%n",
                outbox.published().size(), verdict.overdrawnInStore(), outbox.duplicates());
        out.printf("  balances query table holds %,d accounts%n", verdict.balanceRows());
        out.println();
        out.println("Check: written = stored = indexed = handled (audit, balances), per stream;"
                + " one notification per Overdrawn event; balance table = fold of the store");
        out.print(verdict.report().render(10));
        out.println(verdict.report().agrees() ? "RESULT: OK" : "RESULT: MISMATCH (exit code 1)");
    }
}
