package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.LeaseStore.Lease;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One instance's part in its group, on the coordinator's ticker: heartbeat, lease renewal (a refused or
 * too-late renewal loses the partition), hand-over of partitions beyond its {@link #fairShare} (one per
 * tick), and taking free or expired leases up to that share.
 */
final class LeaseKeeper {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionCoordinator.class);

    private final ReaderContext ctx;
    private final FeedReaderConfig config;
    /** The group's live instances at the last heartbeat; written by the ticker only. */
    private volatile List<String> live = List.of();

    LeaseKeeper(ReaderContext ctx) {
        this.ctx = ctx;
        this.config = ctx.config();
    }

    /**
     * Records this instance's heartbeat and renews the lease of each runner that holds one; a runner
     * whose lease is gone, or about to run out unrenewed, loses it.
     */
    void renew(Collection<PartitionRunner> runners) {
        try {
            live = ctx.checkpoints().heartbeat(config.group(), config.owner(), config.leaseTimeout());
        } catch (RuntimeException e) {
            LOG.warn("group {}: could not record this instance's heartbeat, trying again at the next tick: {}", config.group(),
                    e.toString());
        }
        for (PartitionRunner r : runners) {
            RunnerSnapshot s = r.snapshot();
            if (s.lease() == null || !s.phase().leased()) {
                continue;
            }
            try {
                Optional<Lease> renewed = ctx.checkpoints().renew(s.lease(), config.leaseTimeout());
                if (renewed.isPresent()) {
                    r.renewed(renewed.get());
                } else {
                    r.lose("its lease was taken over or revoked");
                }
            } catch (RuntimeException e) {
                Instant giveUpAt = s.lease().expiresAt().minus(config.leaseTimeout().dividedBy(3));
                if (config.clock().instant().isAfter(giveUpAt)) {
                    r.lose("its lease could not be renewed before it expires (" + e + ")");
                } else {
                    LOG.warn("partition {}: lease renewal failed, retrying: {}", r.partition(), e.toString());
                }
            }
        }
    }

    /**
     * Beyond its share, hands over one partition per tick (the highest), so that shares move gradually;
     * below it, takes free, released or expired leases (or ours) of partitions without a runner.
     *
     * @param runners this instance's runners, in partition order
     * @param launch starts a runner under a lease taken, false when the reader closed meanwhile (it gave the lease back)
     * @return whether every partition could be looked at (none failed on an error)
     */
    boolean balance(List<PartitionId> wanted, List<PartitionRunner> runners, BiPredicate<PartitionId, Lease> launch) {
        List<PartitionRunner> holding = runners.stream().filter(r -> r.snapshot().phase().holding()).toList();
        int liveShare = fairShare(wanted.size(), live, config.owner());
        if (holding.size() > liveShare && holding.get(holding.size() - 1).handOver()) {
            LOG.info("group {}: {} holds {} partitions, its share of {} over {} live instances is {}; handing over partition {}",
                    config.group(), config.owner(), holding.size(), wanted.size(), live.size(), liveShare,
                    holding.get(holding.size() - 1).partition());
        }
        Set<PartitionId> running = runners.stream().map(PartitionRunner::partition).collect(Collectors.toSet());
        long held = runners.stream().filter(r -> r.snapshot().phase().holding()).count(); // the one handed over no longer counts
        boolean complete = true;
        Instant now = config.clock().instant();
        Map<PartitionId, Optional<Lease>> current = new TreeMap<>();
        Set<String> owners = new TreeSet<>(live);
        owners.add(config.owner());
        for (PartitionId p : wanted) {
            if (!running.contains(p)) {
                try {
                    Optional<Lease> l = ctx.checkpoints().current(config.group(), p);
                    current.put(p, l);
                    // an instance holding a lease is live, even when its store keeps no heartbeats
                    l.filter(x -> x.expiresAt().isAfter(now)).ifPresent(x -> owners.add(x.owner()));
                } catch (RuntimeException e) {
                    complete = false;
                    LOG.warn("partition {}: could not read its lease, trying again at the next tick: {}", p, e.toString());
                }
            }
        }
        int share = fairShare(wanted.size(), owners, config.owner());
        for (Map.Entry<PartitionId, Optional<Lease>> e : current.entrySet()) {
            if (held >= share) {
                break;
            }
            Optional<Lease> l = e.getValue();
            boolean free = l.isEmpty() || !l.get().expiresAt().isAfter(now) || l.get().owner().equals(config.owner());
            if (free) {
                try {
                    Optional<Lease> taken = ctx.checkpoints().tryAcquire(config.group(), e.getKey(), config.owner(), config.leaseTimeout());
                    if (taken.isPresent() && launch.test(e.getKey(), taken.get())) {
                        held++;
                    }
                } catch (RuntimeException ex) {
                    complete = false;
                    LOG.warn("partition {}: could not take its lease, trying again at the next tick: {}", e.getKey(), ex.toString());
                }
            }
        }
        return complete;
    }

    /**
     * How many partitions one live instance should hold: partitions ÷ instances, plus one for the first
     * (partitions mod instances) in owner order. The shares add up exactly and every instance computes
     * the same ones, so the group settles instead of passing partitions round.
     *
     * @param live the group's live instances (any order; {@code self} counts even when missing)
     */
    static int fairShare(int partitions, Collection<String> live, String self) {
        List<String> owners = new ArrayList<>(new TreeSet<>(live));
        if (!owners.contains(self)) {
            owners.add(self);
            owners.sort(null);
        }
        int n = owners.size();
        return partitions / n + (owners.indexOf(self) < partitions % n ? 1 : 0);
    }

    /** Removes this instance from the group's live instances at once (it is closing). */
    void leave() {
        try {
            ctx.checkpoints().leave(config.group(), config.owner());
        } catch (RuntimeException e) {
            LOG.warn("group {}: could not leave the live instances; this one counts until its heartbeat runs out: {}",
                    config.group(), e.toString());
        }
    }
}
