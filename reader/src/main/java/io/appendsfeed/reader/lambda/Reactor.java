package io.appendsfeed.reader.lambda;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.FeedNotification;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.reader.CatchUpResult;
import io.appendsfeed.reader.CheckpointStore;
import io.appendsfeed.reader.DynamoCheckpointStore;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.PartitionLag;
import io.appendsfeed.reader.StartPosition;
import io.appendsfeed.reader.StoredCheckpoint;
import io.appendsfeed.reader.StreamHandler;
import io.appendsfeed.reader.lambda.internal.FeedTails;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A reactor hosted in short invocations (AWS Lambda): each one reads the feed until it has done
 * what it was woken for, within the time it has less a margin, commits and returns. The core of
 * {@link ReactorHandler}, free of Lambda's types.
 *
 * <ul>
 * <li>{@link #notified}: notifications say a partition reached a position. Partitions whose
 *     committed checkpoint is already there are not read at all (a repeated or out-of-date
 *     notification costs one read of the checkpoint). The others are read to their tails. When
 *     another invocation holds a partition's lease, this one waits for it (backing off, at most the
 *     lease timeout) and looks again; the notifications still not reached at the end are returned, to
 *     be delivered again.</li>
 * <li>{@link #scheduled}: reads every partition behind its tail to the tail: the safety net that
 *     heals a lost notification. On an idle feed it only looks (a few reads, no writes).</li>
 * </ul>
 *
 * <p>Each invocation reads under its own owner name ({@code <config owner>/<invocation id>}), so that
 * two invocations never share a lease, even when restored from one snapshot.
 */
public final class Reactor {

    private static final Logger LOG = LoggerFactory.getLogger(Reactor.class);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(50);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(1);

    /** A notification and the id of the message that carried it. */
    public record Notice(String id, FeedNotification notification) {
        public Notice {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(notification, "notification");
        }
    }

    private final DynamoDbClient dynamo;
    private final FeedReaderConfig config;
    private final StreamHandler handler;
    private final CheckpointStore checkpoints;
    private final FeedTails tails;
    private final Duration margin;

    /**
     * @param margin kept free at the end of each invocation: the reader stops reading this long before the
     *               invocation's time is up, to let running handler calls finish (up to a quarter of it) and commit
     * @throws IllegalArgumentException when the start position is explicit: in Lambda every invocation is a new
     *         reader and would apply it again; use {@code StartPosition.storedOr(...)}
     */
    public Reactor(DynamoDbClient dynamo, FeedReaderConfig config, StreamHandler handler, Duration margin) {
        this.dynamo = Objects.requireNonNull(dynamo, "dynamo");
        this.config = Objects.requireNonNull(config, "config");
        this.handler = Objects.requireNonNull(handler, "handler");
        this.margin = Objects.requireNonNull(margin, "margin");
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
        this.tails = new FeedTails(index);
    }

    public FeedReaderConfig config() {
        return config;
    }

    /**
     * @param remaining the invocation's time left
     * @param invocation the invocation's id (Lambda's request id)
     * @return the notices not reached are in {@link ReactorOutcome#unmet()}
     * @throws RuntimeException when the checkpoints or the index cannot be read; nothing was lost, deliver them again
     */
    public ReactorOutcome notified(List<Notice> notices, Duration remaining, String invocation) {
        long start = System.nanoTime();
        long deadline = start + remaining.minus(margin).toNanos();
        long contentionEnds = start + config.leaseTimeout().toNanos();
        Map<PartitionId, Checkpoint> target = new TreeMap<>();
        for (Notice n : notices) {
            if (reads(n.notification().partition())) {
                target.merge(n.notification().partition(), n.notification().position(), (a, b) -> a.compareTo(b) >= 0 ? a : b);
            }
        }
        Map<PartitionId, Checkpoint> reached = new TreeMap<>();
        target.keySet().forEach(p -> reached.put(p, committed(p)));
        List<PartitionId> pending = pending(target, reached);
        int runs = 0;
        List<String> problems = List.of();
        Duration backoff = FIRST_BACKOFF;
        while (!pending.isEmpty() && deadline - System.nanoTime() > 0) {
            Run run = run(Set.copyOf(pending), invocation, Duration.ofNanos(deadline - System.nanoTime()));
            runs++;
            problems = run.problems();
            pending.forEach(p -> reached.put(p, committed(p)));
            pending = pending(target, reached);
            if (pending.isEmpty() || !problems.isEmpty() || !run.caughtUp()) {
                break;
            }
            // read to the tail yet short of the notified position: another invocation holds the lease and is
            // reading it (or has just read past it); look again shortly, while that can help
            long now = System.nanoTime();
            if (now + backoff.toNanos() - Math.min(deadline, contentionEnds) >= 0) {
                break;
            }
            if (!pause(backoff)) {
                break;
            }
            backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
        }
        List<String> unmet = new ArrayList<>();
        for (Notice n : notices) {
            PartitionId p = n.notification().partition();
            if (reads(p) && n.notification().position().compareTo(reached.get(p)) > 0) {
                unmet.add(n.id());
            }
        }
        ReactorOutcome outcome = new ReactorOutcome(runs, unmet.isEmpty(), reached, unmet, problems, Duration.ofNanos(System.nanoTime() - start));
        LOG.info("group {}: {} notifications for partitions {}, {} runs, reached {}, {} not reached{}, {} ms", config.group(),
                notices.size(), target, runs, reached, unmet.size(), problems.isEmpty() ? "" : ", problems " + problems,
                outcome.took().toMillis());
        return outcome;
    }

    /**
     * Reads every partition behind its tail to the tail (those another invocation holds are left to it).
     * Partitions whose committed checkpoint is at the tail are not read: on an idle feed a run is a few
     * reads of the index, the active epochs' Tips and the checkpoints, and writes nothing. A group that
     * ever parked a stream is always read, so that a release is replayed.
     *
     * @throws RuntimeException when the index cannot be read
     */
    public ReactorOutcome scheduled(Duration remaining, String invocation) {
        long start = System.nanoTime();
        Map<PartitionId, Checkpoint> reached = new TreeMap<>();
        Set<PartitionId> behind = new TreeSet<>();
        boolean everParked = tails.everParked(config.group());
        for (Map.Entry<PartitionId, Checkpoint> tail : tails.read().entrySet()) {
            if (reads(tail.getKey())) {
                Checkpoint committed = committed(tail.getKey());
                reached.put(tail.getKey(), committed);
                if (everParked || committed.compareTo(tail.getValue()) < 0) {
                    behind.add(tail.getKey());
                }
            }
        }
        if (behind.isEmpty()) {
            ReactorOutcome outcome = new ReactorOutcome(0, true, reached, List.of(), List.of(), Duration.ofNanos(System.nanoTime() - start));
            LOG.info("group {}: scheduled look, every partition at its tail {}, {} ms", config.group(), reached, outcome.took().toMillis());
            return outcome;
        }
        Duration budget = remaining.minus(margin);
        if (budget.isNegative() || budget.isZero()) {
            LOG.warn("group {}: {} left, less than the margin {}: not reading; give the function a longer timeout", config.group(),
                    remaining, margin);
            return new ReactorOutcome(0, false, Map.of(), List.of(), List.of("no time left"), Duration.ofNanos(System.nanoTime() - start));
        }
        Run run = run(behind, invocation, budget);
        behind.forEach(p -> reached.put(p, committed(p)));
        ReactorOutcome outcome = new ReactorOutcome(1, run.caughtUp(), reached, List.of(), run.problems(),
                Duration.ofNanos(System.nanoTime() - start));
        LOG.info("group {}: scheduled run of partitions {}, caught up {}{}, {} ms", config.group(), behind, run.caughtUp(),
                run.problems().isEmpty() ? "" : ", problems " + run.problems(), outcome.took().toMillis());
        return outcome;
    }

    /**
     * @param caughtUp every partition the run held was read to its tail, handled and committed
     * @param problems partitions that stopped on something they cannot read, with why
     */
    private record Run(boolean caughtUp, List<String> problems) {}

    /**
     * A fresh reader, under this invocation's own owner name, reads the partitions (those whose leases it can
     * take) until it has handled everything up to their tails or the budget is spent, then commits and releases.
     * Handler calls still running when reading stops get a quarter of the margin at most; then their work is
     * left uncommitted (delivered again).
     *
     * @throws RuntimeException when the index table cannot be found (the reader's start)
     */
    private Run run(Set<PartitionId> partitions, String invocation, Duration budget) {
        Duration quarter = margin.dividedBy(4);
        FeedReaderConfig.Builder b = config.toBuilder().owner(config.owner() + "/" + invocation).partitions(partitions)
                .shutdownTimeout(config.shutdownTimeout().compareTo(quarter) < 0 ? config.shutdownTimeout() : quarter);
        CatchUpResult r = new FeedReader(dynamo, b.build(), handler).runUntilCaughtUp(budget);
        return new Run(r.caughtUp(), r.lag().stream().filter(l -> l.state() == PartitionLag.State.FAILED)
                .map(l -> "partition " + l.partition() + ": " + l.error()).toList());
    }

    private boolean reads(PartitionId p) {
        return config.partitions().isEmpty() || config.partitions().contains(p);
    }

    private Checkpoint committed(PartitionId p) {
        Optional<StoredCheckpoint> c = checkpoints.read(config.group(), p);
        return c.map(StoredCheckpoint::checkpoint).orElse(Checkpoint.START);
    }

    private static List<PartitionId> pending(Map<PartitionId, Checkpoint> target, Map<PartitionId, Checkpoint> reached) {
        return target.entrySet().stream().filter(e -> e.getValue().compareTo(reached.get(e.getKey())) > 0).map(Map.Entry::getKey).toList();
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
