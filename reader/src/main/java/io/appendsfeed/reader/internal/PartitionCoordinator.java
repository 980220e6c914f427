package io.appendsfeed.reader.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.CatchUpResult;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.Lease;
import io.appendsfeed.reader.ParkedStream;
import io.appendsfeed.reader.PartitionLag;
import io.appendsfeed.reader.StartPosition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import org.slf4j.LoggerFactory;

/**
 * Decides which partitions this instance reads: takes free or expired leases (up to its fair share
 * of the live instances), renews them, gives up those it loses, and starts a {@link PartitionRunner}
 * per partition held. Also looks for released parked streams and logs lag, on the same tick.
 */
public final class PartitionCoordinator {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionCoordinator.class);
    private static final Duration CATCH_UP_CHECK = Duration.ofMillis(20);

    private enum Phase { NEW, RUNNING, CLOSED }

    private final ReaderContext ctx;
    private final FeedReaderConfig config;
    private final ScheduledExecutorService ticker;
    private final Map<PartitionId, PartitionRunner> runners = new TreeMap<>();
    private final Map<PartitionId, Thread> threads = new TreeMap<>();
    private final Set<PartitionId> startedOnce = new HashSet<>();
    private Phase phase = Phase.NEW;
    /** The last tick took every partition it could and nothing was given up since. */
    private volatile boolean settled;
    private long nextParkedPoll;
    private long nextLagLog;

    public PartitionCoordinator(ReaderContext ctx, ScheduledExecutorService ticker) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.ticker = ticker;
    }

    public synchronized void start() {
        if (phase != Phase.NEW) {
            throw new IllegalStateException("the reader was already " + (phase == Phase.RUNNING ? "started" : "closed"));
        }
        try {
            ctx.positions().partitions();
        } catch (ResourceNotFoundException e) {
            throw new IllegalStateException("index table '" + config.indexTable() + "' does not exist (or is not"
                    + " visible to these credentials); create it with the indexer first", e);
        } catch (RuntimeException e) {
            // a transient error (network, throttling): the ticks below keep trying
            LOG.warn("group {}: could not read the index yet, carrying on: {}", config.group(), e.toString());
        }
        phase = Phase.RUNNING;
        nextParkedPoll = System.nanoTime() + config.parkedPollInterval().toNanos();
        nextLagLog = System.nanoTime() + config.lagLogInterval().toNanos();
        tickSafely();
        long every = Math.max(10, Math.min(config.leaseTimeout().toMillis() / 3, config.parkedPollInterval().toMillis()));
        ticker.scheduleWithFixedDelay(this::tickSafely, every, every, TimeUnit.MILLISECONDS);
    }

    private void tickSafely() {
        try (LogContext ignored = LogContext.group(config.group())) {
            tick();
        } catch (RuntimeException e) {
            settled = false;
            LOG.warn("group {}: lease and partition upkeep failed, trying again at the next tick: {}", config.group(), e.toString(), e);
        }
    }

    private synchronized void tick() {
        if (phase != Phase.RUNNING) {
            return;
        }
        reap();
        // a failed partition's runner no longer commits by itself: what was handled before the failure still counts
        runners.values().stream().filter(r -> r.state() == PartitionLag.State.FAILED).forEach(PartitionRunner::commit);
        if (config.leases()) {
            renew();
        }
        settled = acquire();
        long now = System.nanoTime();
        if (now - nextParkedPoll >= 0) {
            nextParkedPoll = now + config.parkedPollInterval().toNanos();
            refreshParked();
        }
        if (now - nextLagLog >= 0) {
            nextLagLog = now + config.lagLogInterval().toNanos();
            for (PartitionLag l : lag(true)) {
                LOG.info("group {} partition {}: {} epoch events behind, oldest unhandled {} ms ago, handled {}, committed {},"
                        + " {} streams failing, state {}", config.group(), l.partition(), l.eventsBehind(),
                        l.oldestUnhandledAge().toMillis(), l.handled(), l.committed(), l.failingStreams(), l.state());
            }
        }
    }

    /** Drops runners that stopped (lease lost, override) so that the partition can be taken again. */
    private void reap() {
        for (PartitionId p : new ArrayList<>(runners.keySet())) {
            PartitionRunner r = runners.get(p);
            Thread t = threads.get(p);
            if (r.stopped() && r.state() != PartitionLag.State.FAILED && !t.isAlive()) {
                runners.remove(p);
                threads.remove(p);
                settled = false;
            }
        }
    }

    private void renew() {
        for (PartitionRunner r : runners.values()) {
            if (r.lost() || r.lease() == null) {
                continue;
            }
            try {
                Optional<Lease> renewed = ctx.leases().renew(r.lease(), config.leaseTimeout());
                if (renewed.isPresent()) {
                    r.lease(renewed.get());
                } else {
                    r.lose("its lease was taken over or revoked");
                }
            } catch (RuntimeException e) {
                Instant giveUpAt = r.leaseExpiry().minus(config.leaseTimeout().dividedBy(3));
                if (config.clock().instant().isAfter(giveUpAt)) {
                    r.lose("its lease could not be renewed before it expires (" + e + ")");
                } else {
                    LOG.warn("partition {}: lease renewal failed, retrying: {}", r.partition(), e.toString());
                }
            }
        }
    }

    /** @return whether every partition could be looked at (none failed on an error) */
    private boolean acquire() {
        List<PartitionId> wanted = wanted();
        if (!config.leases()) {
            wanted.stream().filter(p -> !runners.containsKey(p)).forEach(p -> launch(p, null));
            return true;
        }
        boolean complete = true;
        Instant now = config.clock().instant();
        Map<PartitionId, Optional<Lease>> current = new TreeMap<>();
        Set<String> owners = new HashSet<>();
        owners.add(config.owner());
        for (PartitionId p : wanted) {
            if (!runners.containsKey(p)) {
                try {
                    Optional<Lease> l = ctx.leases().current(config.group(), p);
                    current.put(p, l);
                    l.filter(x -> x.expiresAt().isAfter(now)).ifPresent(x -> owners.add(x.owner()));
                } catch (RuntimeException e) {
                    complete = false;
                    LOG.warn("partition {}: could not read its lease, trying again at the next tick: {}", p, e.toString());
                }
            }
        }
        int target = (wanted.size() + owners.size() - 1) / owners.size();
        for (Map.Entry<PartitionId, Optional<Lease>> e : current.entrySet()) {
            if (runners.size() >= target) {
                break;
            }
            Optional<Lease> l = e.getValue();
            boolean free = l.isEmpty() || !l.get().expiresAt().isAfter(now) || l.get().owner().equals(config.owner());
            if (free) {
                try {
                    ctx.leases().tryAcquire(config.group(), e.getKey(), config.owner(), config.leaseTimeout())
                            .ifPresent(lease -> launch(e.getKey(), lease));
                } catch (RuntimeException ex) {
                    complete = false;
                    LOG.warn("partition {}: could not take its lease, trying again at the next tick: {}", e.getKey(), ex.toString());
                }
            }
        }
        return complete;
    }

    private List<PartitionId> wanted() {
        if (!config.partitions().isEmpty()) {
            return config.partitions().stream().sorted().collect(Collectors.toList());
        }
        List<PartitionId> all = new ArrayList<>();
        for (int p = 0; p < ctx.positions().partitions(); p++) {
            all.add(PartitionId.of(p));
        }
        return all;
    }

    private void launch(PartitionId p, Lease lease) {
        boolean explicit = startedOnce.add(p) && !(config.start() instanceof StartPosition.Stored);
        PartitionRunner r = new PartitionRunner(ctx, p, new StartPlan(config.start(), explicit), lease);
        Thread t = new Thread(() -> {
            try (LogContext ignored = LogContext.partition(config.group(), p)) {
                r.run();
            }
        }, "appendsfeed-" + config.group() + "-p" + p);
        t.setDaemon(true);
        runners.put(p, r);
        threads.put(p, t);
        t.start();
    }

    /** Released parked streams of the partitions held start replaying. */
    public void refreshParked() {
        try {
            long asOf = ctx.scheduler().parkSequence();
            Set<StreamName> still = ctx.parked().list(config.group()).stream().map(ParkedStream::stream).collect(Collectors.toSet());
            ctx.scheduler().released(still, asOf);
        } catch (RuntimeException e) {
            LOG.warn("group {}: could not read parked streams, trying again later: {}", config.group(), e.toString());
        }
    }

    public synchronized List<PartitionId> held() {
        return runners.entrySet().stream().filter(e -> !e.getValue().stopped()).map(Map.Entry::getKey).toList();
    }

    /** @throws RuntimeException when the index table cannot be read */
    public List<PartitionLag> lag() {
        return lag(false);
    }

    /** @param tolerant report a partition whose tail cannot be read with an unknown tail instead of throwing */
    private List<PartitionLag> lag(boolean tolerant) {
        List<PartitionRunner> rs;
        synchronized (this) {
            rs = new ArrayList<>(runners.values());
        }
        List<PartitionLag> out = new ArrayList<>();
        Instant now = config.clock().instant();
        for (PartitionRunner r : rs) {
            PartitionId p = r.partition();
            PartitionStatus st = ctx.scheduler().status(p);
            Checkpoint handled = st != null ? st.handled() : r.committed();
            Checkpoint from = handled == null ? Checkpoint.START : handled;
            int failing = st == null ? 0 : st.failingStreams();
            try {
                Checkpoint tail = ctx.positions().tail(p);
                long behind = ctx.positions().distance(p, from, tail);
                Duration age = Duration.ZERO;
                if (st != null && st.oldestUnhandled() != null) {
                    age = Duration.between(st.oldestUnhandled(), now);
                } else if (behind > 0) {
                    age = ctx.positions().age(p, from, now);
                }
                out.add(new PartitionLag(p, r.state(), r.committed(), handled, tail, behind,
                        age.isNegative() ? Duration.ZERO : age, failing, r.error()));
            } catch (RuntimeException e) {
                if (!tolerant) {
                    throw e;
                }
                String why = "tail unknown, the index could not be read: " + e;
                out.add(new PartitionLag(p, r.state(), r.committed(), handled, null, -1, null, failing,
                        r.error() == null ? why : r.error()));
            }
        }
        return out;
    }

    public CatchUpResult runUntilCaughtUp(Duration timeout) {
        synchronized (this) {
            if (phase == Phase.NEW) {
                start();
            }
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean caughtUp = false;
        Object signal = new Object();
        try {
            while (true) {
                List<PartitionRunner> rs;
                synchronized (this) {
                    rs = new ArrayList<>(runners.values());
                }
                if (settled && rs.stream().allMatch(PartitionRunner::drained)) {
                    caughtUp = rs.stream().noneMatch(r -> r.state() == PartitionLag.State.FAILED);
                    break;
                }
                if (System.nanoTime() - deadline >= 0) {
                    break;
                }
                synchronized (signal) {
                    signal.wait(CATCH_UP_CHECK.toMillis());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        close();
        return new CatchUpResult(caughtUp, lag(true));
    }

    /** Stops reading, lets running handler calls finish, commits, releases the leases. */
    public void close() {
        List<PartitionRunner> rs;
        List<Thread> ts;
        synchronized (this) {
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
            ts = new ArrayList<>(threads.values());
        }
        rs.forEach(PartitionRunner::requestStop);
        try {
            for (Thread t : ts) {
                t.join(config.shutdownTimeout().toMillis());
            }
            ctx.scheduler().stopDispatching();
            if (!ctx.scheduler().awaitNoneRunning(config.shutdownTimeout())) {
                LOG.warn("group {}: handler calls still running after {}; their work is not committed and will be redelivered",
                        config.group(), config.shutdownTimeout());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        rs.forEach(PartitionRunner::finish);
    }
}
