package io.appendsfeed.reader.lambda;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.FeedNotification;
import io.appendsfeed.model.feed.FeedPositions;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.reader.CheckpointStore;
import io.appendsfeed.reader.CheckpointStore.StoredCheckpoint;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.DynamoParkedStreams;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReader.CatchUpResult;
import io.appendsfeed.reader.FeedReader.PartitionLag;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StartPosition;
import io.appendsfeed.reader.StreamHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The core of {@link ReactorHandler}, free of Lambda's types: each invocation reads the feed until it has
 * done what it was woken for ({@link #notified} or {@link #scheduled}), within the time it has less a
 * margin, commits and returns. It reads under its own owner name ({@code <config owner>/<invocation id>}),
 * so that two invocations never share a lease, even when restored from one snapshot.
 */
public final class Reactor {

    private static final Logger LOG = LoggerFactory.getLogger(Reactor.class);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(50);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(1);

    /** A notification and the id of the message that carried it. */
    public record Notice(String id, FeedNotification notification) {}

    /**
     * What one invocation did.
     *
     * @param runs readers started (0 when every notification was already reached: a repeat or a stale one)
     * @param caughtUp notified: every notified position was reached; scheduled: every partition this
     *                 invocation could take was read to its tail
     * @param reached the group's committed checkpoint in each partition looked at, at the end
     * @param unmet notified: ids of the notifications whose position was not reached (to be delivered again)
     * @param problems partitions stopped on something they cannot read, with why
     * @param took the invocation's time in the reactor
     */
    public record Outcome(int runs, boolean caughtUp, Map<PartitionId, Checkpoint> reached, List<String> unmet,
                          List<String> problems, Duration took) {
        public Outcome {
            reached = Collections.unmodifiableMap(new TreeMap<>(reached));
            unmet = List.copyOf(unmet);
            problems = List.copyOf(problems);
        }
    }

    private final DynamoDbClient dynamo;
    private final FeedReaderConfig config;
    private final StreamHandler handler;
    private final CheckpointStore checkpoints;
    private final StoreClient index;
    private final Duration margin;

    /**
     * @param margin kept free at the end of each invocation: the reader stops reading this long before the
     *               invocation's time is up, to let running handler calls finish (up to a quarter of it) and commit
     * @throws IllegalArgumentException when the start position is explicit: in Lambda every invocation is a new
     *         reader and would apply it again; use {@code StartPosition.storedOr(...)}
     */
    public Reactor(DynamoDbClient dynamo, FeedReaderConfig config, StreamHandler handler, Duration margin) {
        this.dynamo = Objects.requireNonNull(dynamo, "dynamo");
        this.config = config;
        this.handler = Objects.requireNonNull(handler, "handler");
        this.margin = margin;
        if (margin.isNegative() || margin.isZero()) {
            throw new IllegalArgumentException("margin must be positive, was " + margin);
        }
        if (!(config.start() instanceof StartPosition.Stored)) {
            throw new IllegalArgumentException("group " + config.group() + " starts at " + config.start() + ", an explicit"
                    + " start: every Lambda invocation is a new reader and would move the checkpoint there again; use"
                    + " StartPosition.storedOr(" + config.start() + ") to start there only when the group has no checkpoint");
        }
        StoreClient index = new StoreClient(dynamo, StoreConfig.builder(config.indexTable()).reservedStreams(true).clock(config.clock()).build());
        this.checkpoints = new DynamoCheckpointStore(index, config.clock());
        this.index = index;
    }

    public FeedReaderConfig config() {
        return config;
    }

    /**
     * Reads the notified partitions whose checkpoint is short of the notified position to their tails
     * (a repeated or stale notification costs one read of the checkpoint). While another invocation
     * holds a partition's lease, it backs off and looks again, at most the lease timeout.
     *
     * @param remaining the invocation's time left
     * @param invocation the invocation's id (Lambda's request id)
     * @return the notices not reached, to be delivered again, are in {@link Outcome#unmet()}
     * @throws RuntimeException when the checkpoints or the index cannot be read; nothing was lost, deliver them again
     */
    public Outcome notified(List<Notice> notices, Duration remaining, String invocation) {
        long start = System.nanoTime();
        long deadline = start + remaining.minus(margin).toNanos();
        long waitEnds = Math.min(deadline, start + config.leaseTimeout().toNanos());
        List<Notice> ours = notices.stream().filter(n -> reads(n.notification().partition())).toList();
        Map<PartitionId, Checkpoint> reached = new TreeMap<>();
        ours.forEach(n -> reached.put(n.notification().partition(), committed(n.notification().partition())));
        int runs = 0;
        List<String> problems = List.of();
        Duration backoff = FIRST_BACKOFF;
        Set<PartitionId> pending = partitions(unmet(ours, reached));
        while (!pending.isEmpty() && deadline - System.nanoTime() > 0) {
            CatchUpResult run = run(pending, invocation, Duration.ofNanos(deadline - System.nanoTime()));
            runs++;
            problems = problems(run);
            pending.forEach(p -> reached.put(p, committed(p)));
            pending = partitions(unmet(ours, reached));
            // read to the tail yet short of the notified position: another invocation holds the lease and is
            // reading it (or has just read past it); look again shortly, while that can help
            boolean done = pending.isEmpty() || !problems.isEmpty() || !run.caughtUp()
                    || System.nanoTime() + backoff.toNanos() - waitEnds >= 0;
            if (done || !pause(backoff)) {
                break;
            }
            backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
        }
        List<String> unmet = unmet(ours, reached).stream().map(Notice::id).toList();
        Outcome outcome = new Outcome(runs, unmet.isEmpty(), reached, unmet, problems, Duration.ofNanos(System.nanoTime() - start));
        LOG.info("group {}: {} notifications, {} runs, reached {}, {} not reached{}, {} ms", config.group(), notices.size(), runs,
                reached, unmet.size(), problems.isEmpty() ? "" : ", problems " + problems, outcome.took().toMillis());
        return outcome;
    }

    /**
     * Reads every partition behind its tail to the tail: the safety net for a lost notification. On an
     * idle feed it only reads the index, the active epochs' Tips and the checkpoints, and starts no reader.
     *
     * @throws RuntimeException when the index cannot be read
     */
    public Outcome scheduled(Duration remaining, String invocation) {
        long start = System.nanoTime();
        Map<PartitionId, Checkpoint> reached = new TreeMap<>();
        Set<PartitionId> behind = new TreeSet<>();
        // releases are replayed by a reader, so a group that ever parked a stream is always read
        boolean everParked = index.readTip(DynamoParkedStreams.stream(config.group()), true).map(t -> t.version() > 0).orElse(false);
        // the tail as the notifier sees it, the Tip's: events a calf holds before its Tip moves are read once it moves
        // (within a minute, the indexer's schedule), and the notifier then wakes the reactor anyway
        FeedPositions positions = new FeedPositions(index);
        for (int k = 0; k < positions.partitions(); k++) {
            PartitionId p = PartitionId.of(k);
            if (reads(p)) {
                reached.put(p, committed(p));
                if (everParked || reached.get(p).compareTo(positions.tail(p)) < 0) {
                    behind.add(p);
                }
            }
        }
        Duration budget = remaining.minus(margin);
        if (!behind.isEmpty() && (budget.isNegative() || budget.isZero())) {
            LOG.warn("group {}: {} left, less than the margin {}: not reading; give the function a longer timeout", config.group(),
                    remaining, margin);
            return new Outcome(0, false, Map.of(), List.of(), List.of("no time left"), Duration.ofNanos(System.nanoTime() - start));
        }
        CatchUpResult run = behind.isEmpty() ? new CatchUpResult(true, List.of()) : run(behind, invocation, budget);
        behind.forEach(p -> reached.put(p, committed(p)));
        Outcome outcome = new Outcome(behind.isEmpty() ? 0 : 1, run.caughtUp(), reached, List.of(), problems(run),
                Duration.ofNanos(System.nanoTime() - start));
        LOG.info("group {}: scheduled, partitions read {}, caught up {}{}, reached {}, {} ms", config.group(), behind, run.caughtUp(),
                outcome.problems().isEmpty() ? "" : ", problems " + outcome.problems(), reached, outcome.took().toMillis());
        return outcome;
    }

    /**
     * A fresh reader under this invocation's own owner name catches up within {@code budget}; handler calls
     * still running then get a quarter of the margin at most, else their work is delivered again.
     *
     * @throws RuntimeException when the index table cannot be found (the reader's start)
     */
    private CatchUpResult run(Set<PartitionId> partitions, String invocation, Duration budget) {
        Duration quarter = margin.dividedBy(4);
        FeedReaderConfig.Builder b = config.toBuilder().owner(config.owner() + "/" + invocation).partitions(partitions)
                .shutdownTimeout(config.shutdownTimeout().compareTo(quarter) < 0 ? config.shutdownTimeout() : quarter);
        return new FeedReader(dynamo, b.build(), handler).runUntilCaughtUp(budget);
    }

    /** The partitions that stopped on something they cannot read, with why. */
    private static List<String> problems(CatchUpResult run) {
        return run.lag().stream().filter(l -> l.state() == PartitionLag.State.FAILED)
                .map(l -> "partition " + l.partition() + ": " + l.error()).toList();
    }

    private boolean reads(PartitionId p) {
        return config.partitions().isEmpty() || config.partitions().contains(p);
    }

    private Checkpoint committed(PartitionId p) {
        return checkpoints.read(config.group(), p).map(StoredCheckpoint::checkpoint).orElse(Checkpoint.START);
    }

    /** The notices whose position the group's checkpoint has not reached. */
    private static List<Notice> unmet(List<Notice> notices, Map<PartitionId, Checkpoint> reached) {
        return notices.stream().filter(n -> n.notification().position().compareTo(reached.get(n.notification().partition())) > 0).toList();
    }

    private static Set<PartitionId> partitions(List<Notice> notices) {
        return notices.stream().map(n -> n.notification().partition()).collect(Collectors.toCollection(TreeSet::new));
    }

    /** @return false when interrupted (the invocation is ending) */
    private static boolean pause(Duration d) {
        try {
            Thread.sleep(d.toMillis()); // waiting for another invocation to finish with a lease: nothing else to do here
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
