package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.StoreTables.WrongTableShapeException;
import io.appendsfeed.reader.FeedReader.CatchUpResult;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.LeaseStore.Lease;
import io.appendsfeed.reader.ParkedStreams.ParkedStream;
import io.appendsfeed.reader.FeedReader.PartitionLag;
import io.appendsfeed.reader.StartPosition;
import io.appendsfeed.reader.internal.metrics.ReaderMeter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One reader instance's lifecycle (start, close, run until caught up) and its runners: starts a
 * {@link PartitionRunner} per partition held and drops those that stopped. Each tick (one thread)
 * lets the {@link LeaseKeeper} keep the group's leases, looks for released parked streams and logs lag.
 *
 * <p>No store call is made while holding {@link #lock}, which guards only the phase and the adding
 * of runners: {@link #held()}, {@link #lag()} and {@link #close()} never wait behind a slow table.
 */
public final class PartitionCoordinator {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionCoordinator.class);

    private enum Phase { NEW, STARTING, RUNNING, CLOSED }

    private record Running(PartitionRunner runner, Thread thread) {}

    private final ReaderContext ctx;
    private final FeedReaderConfig config;
    private final ScheduledExecutorService ticker;
    /** Null when metrics are off. */
    private final ReaderMeter meter;
    private final Object lock = new Object();
    /** Added under {@link #lock} (so that none is added after close), removed by the ticker; read by anyone. */
    private final Map<PartitionId, Running> runners = new ConcurrentSkipListMap<>();
    /** Ticks only. */
    private final Set<PartitionId> startedOnce = new HashSet<>();
    private final LeaseKeeper keeper;
    /** Counted down by {@link #close()} once no handler call runs any more: closing runners commit after that. */
    private final CountDownLatch handlersStopped = new CountDownLatch(1);
    private Phase phase = Phase.NEW;
    /** The last tick took every partition it could and nothing was given up since. */
    private volatile boolean settled;
    private long nextParkedPoll;
    private long nextLagLog;
    /** The lag a catch-up run ended with, once it has: what {@link #lag()} says from then on. */
    private volatile List<PartitionLag> caughtUpLag;

    /** @param meter null when metrics are off */
    public PartitionCoordinator(ReaderContext ctx, ScheduledExecutorService ticker, ReaderMeter meter) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.ticker = ticker;
        this.meter = meter;
        this.keeper = new LeaseKeeper(ctx);
    }

    public void start() {
        synchronized (lock) {
            if (phase != Phase.NEW) {
                throw new IllegalStateException("the reader was already " + (phase == Phase.CLOSED ? "closed" : "started"));
            }
            phase = Phase.STARTING;
        }
        try {
            ctx.feed().partitions(); // the index table exists: anything else is a passing error
        } catch (WrongTableShapeException e) {
            synchronized (lock) {
                phase = phase == Phase.STARTING ? Phase.NEW : phase;
            }
            throw new IllegalStateException("index table '" + e.table() + "' does not exist (or is not visible to these"
                    + " credentials); create it with the indexer first", e);
        } catch (RuntimeException e) {
            // a transient error (network, throttling): the ticks below keep trying
            LOG.warn("group {}: could not read the index yet, carrying on: {}", config.group(), e.toString());
        }
        synchronized (lock) {
            if (phase != Phase.STARTING) {
                return; // closed meanwhile
            }
            phase = Phase.RUNNING;
        }
        nextParkedPoll = System.nanoTime() + config.parkedPollInterval().toNanos();
        nextLagLog = System.nanoTime() + config.lagLogInterval().toNanos();
        long every = Math.max(10, Math.min(Math.min(config.leaseTimeout().toMillis() / 3, config.parkedPollInterval().toMillis()),
                config.lagLogInterval().toMillis()));
        tickSafely(); // on the caller's thread, before the ticker starts: start() returns with its first partitions taken
        ticker.scheduleWithFixedDelay(this::tickSafely, every, every, TimeUnit.MILLISECONDS);
    }

    private void tickSafely() {
        try (LogContext ignored = LogContext.partition(config.group(), null)) {
            tick();
        } catch (RuntimeException e) {
            settled = false;
            LOG.warn("group {}: lease and partition upkeep failed, trying again at the next tick: {}", config.group(), e.toString(), e);
        } finally {
            ctx.scheduler().signal();
        }
    }

    /** On one thread at a time: the caller of start(), then the ticker. */
    private void tick() {
        synchronized (lock) {
            if (phase != Phase.RUNNING) {
                return;
            }
        }
        reap();
        List<PartitionRunner> running = runners.values().stream().map(Running::runner).toList();
        if (config.leases()) {
            keeper.renew(running); // before anything that reads the index: leases are kept even while the index cannot be read
        }
        periodic(); // lag is sampled even while the partition count cannot be read
        List<PartitionId> wanted = wanted();
        if (!config.leases()) {
            wanted.stream().filter(p -> !runners.containsKey(p)).forEach(p -> launch(p, null));
            settled = true;
        } else {
            settled = keeper.balance(wanted, running, this::launch);
        }
    }

    /** Released parked streams, and the lag logged and sampled for metrics, each at its own interval. */
    private void periodic() {
        long now = System.nanoTime();
        if (now - nextParkedPoll >= 0) {
            nextParkedPoll = now + config.parkedPollInterval().toNanos();
            refreshParked();
        }
        if (now - nextLagLog >= 0) {
            nextLagLog = now + config.lagLogInterval().toNanos();
            List<PartitionLag> lag = lag(true, Set.of());
            if (meter != null) {
                meter.sample(() -> lag, () -> ctx.parked().list(config.group()).size(), false);
            }
            for (PartitionLag l : lag) {
                LOG.info("group {} partition {}: {} epoch events behind, oldest unhandled {} ms ago, handled {}, committed {},"
                        + " {} streams failing, state {}", config.group(), l.partition(), l.eventsBehind(),
                        l.oldestUnhandledAge().toMillis(), l.handled(), l.committed(), l.failingStreams(), l.state());
            }
        }
    }

    /** Drops runners that stopped (lease lost, handed over) so that the partition can be taken again. */
    private void reap() {
        for (Running r : runners.values()) {
            if (r.runner().snapshot().phase() == RunnerSnapshot.Phase.STOPPED && !r.thread().isAlive()) {
                runners.remove(r.runner().partition());
                settled = false;
            }
        }
    }

    private List<PartitionId> wanted() {
        if (!config.partitions().isEmpty()) {
            return config.partitions().stream().sorted().toList();
        }
        return IntStream.range(0, ctx.feed().partitions()).mapToObj(PartitionId::of).toList();
    }

    /** @return false when the reader closed meanwhile (the lease, if any, is given back) */
    private boolean launch(PartitionId p, Lease lease) {
        boolean explicit = !startedOnce.contains(p) && !(config.start() instanceof StartPosition.Stored);
        PartitionRunner r = new PartitionRunner(ctx, p, new StartPlan(config.start(), explicit), lease, handlersStopped);
        Thread t = new Thread(() -> {
            try (LogContext ignored = LogContext.partition(config.group(), p)) {
                r.run();
            }
        }, "appendsfeed-" + config.group() + "-p" + p);
        t.setDaemon(true);
        synchronized (lock) {
            if (phase == Phase.RUNNING) {
                startedOnce.add(p);
                runners.put(p, new Running(r, t));
                t.start();
                return true;
            }
        }
        if (lease != null) {
            ctx.checkpoints().release(lease);
        }
        return false;
    }

    /** Released parked streams of the partitions held start replaying. */
    public void refreshParked() {
        try {
            ctx.scheduler().released(() -> ctx.parked().list(config.group()).stream().map(ParkedStream::stream)
                    .collect(Collectors.toSet()));
        } catch (RuntimeException e) {
            LOG.warn("group {}: could not read parked streams, trying again later: {}", config.group(), e.toString());
        }
    }

    /** The partitions this instance reads now (a partition being handed over no longer counts once released). */
    public List<PartitionId> held() {
        return runners.values().stream().map(Running::runner).filter(r -> r.snapshot().phase().leased())
                .map(PartitionRunner::partition).toList();
    }

    /** @throws RuntimeException when the index table cannot be read */
    public List<PartitionLag> lag() {
        return lag(false, Set.of());
    }

    /**
     * The lag of the partitions held, from the runners' snapshots, the scheduler and the index tails.
     *
     * @param tolerant report a partition whose tail cannot be read with an unknown tail instead of throwing
     * @param readToTail partitions handled up to the tail their last read found: not read again, as an
     *                   epoch Tip costs as much as it is big (up to 48 KiB in equinox-js)
     */
    private List<PartitionLag> lag(boolean tolerant, Set<PartitionId> readToTail) {
        List<PartitionLag> ended = caughtUpLag;
        if (ended != null) {
            return ended; // a catch-up run is over: its lag stands (the close's metrics sample asks again)
        }
        List<PartitionLag> out = new ArrayList<>();
        for (Running r : runners.values()) {
            RunnerSnapshot snap = r.runner().snapshot();
            PartitionId p = r.runner().partition();
            Scheduler.Status st = ctx.scheduler().status(p);
            Checkpoint handled = st != null ? st.handled() : snap.committed();
            int failing = st == null ? 0 : st.failingStreams();
            Checkpoint tail = handled;
            long behind = 0;
            Duration age = Duration.ZERO;
            String error = snap.error();
            if (!readToTail.contains(p)) {
                try {
                    Checkpoint from = handled == null ? Checkpoint.START : handled;
                    tail = ctx.feed().tail(p);
                    behind = ctx.feed().distance(p, from, tail);
                    Instant now = config.clock().instant();
                    if (st != null && st.oldestUnhandled() != null) {
                        age = Duration.between(st.oldestUnhandled(), now);
                    } else if (behind > 0) {
                        age = ctx.feed().age(p, from, now);
                    }
                    age = age.isNegative() ? Duration.ZERO : age;
                } catch (RuntimeException e) {
                    if (!tolerant) {
                        throw e;
                    }
                    tail = null;
                    behind = -1;
                    age = null;
                    error = error == null ? "tail unknown, the index could not be read: " + e : error;
                }
            }
            out.add(new PartitionLag(p, snap.state(), snap.committed(), handled, tail, behind, age, failing, error));
        }
        return out;
    }

    /** Starts if not yet, waits until the partitions taken are read to the tail and handled, then closes. */
    public CatchUpResult runUntilCaughtUp(Duration timeout) {
        boolean fresh;
        synchronized (lock) {
            fresh = phase == Phase.NEW;
        }
        ctx.scheduler().endAtTail();
        if (fresh) {
            start();
        }
        boolean caughtUp = false;
        try {
            boolean drained = ctx.scheduler().awaitUntil(
                    () -> settled && runners.values().stream().allMatch(r -> r.runner().drained()), timeout);
            caughtUp = drained && runners.values().stream().noneMatch(r -> r.runner().snapshot().error() != null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // the partitions read to their tail know it: the lag report reads only the others' tails
        Set<PartitionId> readToTail = runners.values().stream().map(Running::runner)
                .filter(r -> r.drained() && r.snapshot().error() == null)
                .map(PartitionRunner::partition).collect(Collectors.toSet());
        close();
        caughtUpLag = lag(true, readToTail);
        return new CatchUpResult(caughtUp, caughtUpLag);
    }

    /**
     * Stops reading, lets running handler calls finish (up to the shutdown timeout), lets each runner
     * commit and release its lease, then leaves the group so that the others take its share at once.
     */
    public void close() {
        List<Running> rs;
        synchronized (lock) {
            if (phase == Phase.CLOSED) {
                return;
            }
            boolean wasRunning = phase == Phase.RUNNING;
            phase = Phase.CLOSED;
            ticker.shutdownNow();
            if (!wasRunning) {
                return;
            }
            rs = new ArrayList<>(runners.values());
        }
        rs.forEach(r -> r.runner().close());
        try {
            if (!ctx.scheduler().stop(config.shutdownTimeout())) {
                LOG.warn("group {}: handler calls still running after {}; their work is not committed and will be redelivered",
                        config.group(), config.shutdownTimeout());
            }
            handlersStopped.countDown();
            for (Running r : rs) {
                r.thread().join(config.shutdownTimeout().toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            handlersStopped.countDown();
        }
        if (config.leases()) {
            keeper.leave();
        }
    }
}
