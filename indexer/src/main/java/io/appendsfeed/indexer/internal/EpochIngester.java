package io.appendsfeed.indexer.internal;

import io.appendsfeed.indexer.FeedGapException;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.IngestConflictException;
import io.appendsfeed.indexer.PartitionOutcome;
import io.appendsfeed.indexer.SourceSpan;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.feed.EpochDecider;
import io.appendsfeed.model.feed.EpochEvent;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.EpochState;
import io.appendsfeed.model.feed.EpochWrite;
import io.appendsfeed.model.feed.PartitionId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ingests spans into one partition: load the active epoch (once; then kept), decide, append with a
 * condition on the epoch's version, and on a conflict catch up and decide again. Closes epochs at
 * their limits, records the successor in the index and carries on there. Thread-safe (one call at a time).
 */
public final class EpochIngester {

    private static final Logger log = LoggerFactory.getLogger(EpochIngester.class);
    /** After a batch's first conflict, every how many conflicts the epoch is read rather than followed by the refusals alone. */
    static final int READ_EVERY_CONFLICTS = 3;
    /** The backoff after a conflict grows with the conflicts in a row up to this many times {@link IndexerConfig#conflictBackoff()}. */
    static final int BACKOFF_STEPS = 8;
    /** After this many conflicts in a row a writer writes again without waiting. */
    static final int AGED_AFTER = 16;

    private final PartitionId partition;
    private final AppendsEpoch epochs;
    private final KnownIndex index;
    private final PriorEpochs prior;
    private final IndexerConfig config;
    private EpochState state; // the active epoch as last seen; a valid prefix of it even after a failed write

    public EpochIngester(PartitionId partition, AppendsEpoch epochs, KnownIndex index, IndexerConfig config) {
        this.partition = partition;
        this.epochs = epochs;
        this.index = index;
        this.prior = new PriorEpochs(epochs, partition);
        this.config = config;
    }

    /**
     * Never throws: a failure is the outcome's {@code error}, with what was settled before it. The active
     * epoch's Tip ends up at its calves' end; when it cannot be moved there, the batch fails from its
     * first span (its spans are in; the source delivers them again, they are duplicates, and the retry
     * moves the Tip).
     */
    public synchronized PartitionOutcome ingest(List<SourceSpan> spans) {
        Counts c = new Counts();
        int settled = 0;
        try {
            Instant horizon = horizon(spans);
            List<SourceSpan> rest = spans;
            EpochState s = active();
            int conflicts = 0;
            EpochWrite carried = null; // a decision that still holds after a lost race, and its bytes
            AppendsEpoch.Encoded carriedBytes = null;
            while (!rest.isEmpty()) {
                EpochWrite d;
                if (carried != null) {
                    d = carried;
                    carried = null;
                } else {
                    Set<StreamName> unknown = new LinkedHashSet<>();
                    EpochState cur = s;
                    rest.forEach(x -> { if (cur.nextIndex(x.span().stream()) < 0) unknown.add(x.span().stream()); });
                    d = EpochDecider.decide(s, rest, prior(s.epoch(), unknown, horizon), config.limits(), config.allowGaps());
                }
                if (d.writes()) {
                    AppendsEpoch.Encoded bytes = carriedBytes != null ? carriedBytes : epochs.encode(d.events());
                    carriedBytes = null;
                    AppendsEpoch.Appended written = epochs.append(partition, s, bytes);
                    if (!written.written()) {
                        c.conflicts++;
                        if (++conflicts > config.maxConflictRetries()) {
                            throw new IngestConflictException(partition, conflicts);
                        }
                        log.debug("partition {} epoch {}: conflict at version {}, following the writer that won", partition,
                                s.epoch(), s.version());
                        backOff(conflicts);
                        AppendsEpoch.Since since = follow(written, conflicts);
                        s = state = moveOnIfClosed(since.state());
                        if (s == since.state() && EpochDecider.stillHolds(d, s, since.events(), rest, config.limits())) {
                            carried = d; // the winner's events touch none of this write's streams: the same write goes next
                            carriedBytes = bytes;
                        }
                        continue;
                    }
                    conflicts = 0;
                    s = state = written.state();
                    c.writes++;
                }
                c.accepted += d.acceptedEvents();
                c.duplicates += d.duplicateEvents();
                c.healed += d.healedEvents();
                if (d.healedEvents() > 0) {
                    log.warn("partition {} epoch {}: indexed {} events missing from the delivered records from the Tips instead",
                            partition, s.epoch(), d.healedEvents());
                }
                d.allowedGaps().forEach(g -> log.warn("partition {}: allowed gap: {}", partition, FeedGapException.of(g).getMessage()));
                settled += d.consumed();
                rest = rest.subList(d.consumed(), rest.size());
                if (d.remainder() != null) {
                    // the rest of a span too big for one write goes first in the next; it settles once all of it is in
                    SourceSpan in = rest.get(0);
                    List<SourceSpan> next = new ArrayList<>(rest.size());
                    next.add(in.with(d.remainder()));
                    next.addAll(rest.subList(1, rest.size()));
                    rest = next;
                }
                if (d.gap() != null) {
                    // decided on the state as last seen: another indexer may have written the missing events since
                    EpochState fresh = moveOnIfClosed(epochs.catchUp(partition, s, true));
                    if (fresh.version() != s.version() || !fresh.epoch().equals(s.epoch())) {
                        s = state = fresh;
                        continue;
                    }
                    throw FeedGapException.of(d.gap());
                }
                if (d.close()) {
                    c.closed++;
                    s = moveOnIfClosed(s);
                }
            }
            try {
                epochs.ensureTip(partition, s);
            } catch (RuntimeException e) {
                log.warn("partition {} epoch {}: its Tip cannot be moved to its calves' end ({}); the batch is delivered again"
                        + " to move it", partition, s.epoch(), e.toString());
                return c.outcome(s.epoch(), spans.size(), 0, e);
            }
            return c.outcome(s.epoch(), spans.size(), settled, null);
        } catch (RuntimeException e) {
            if (!(e instanceof FeedGapException)) {
                log.warn("partition {}: {} of {} spans settled, then failed: {}", partition, settled, spans.size(), e.toString());
            }
            if (state != null && !state.isClosed()) {
                try {
                    epochs.ensureTip(partition, state); // a batch refused at a gap may be refused for a long time
                } catch (RuntimeException tip) {
                    log.warn("partition {} epoch {}: its Tip cannot be moved to its calves' end either ({})", partition,
                            state.epoch(), tip.toString());
                }
            }
            return c.outcome(state == null ? EpochId.ZERO : state.epoch(), spans.size(), settled, e);
        }
    }

    /**
     * Where the epoch stands after a lost race. The refused write returned the winner's item, which is
     * usually all that was missed once this writer is current: it is folded, and nothing is read. The
     * first conflict of a batch reads the epoch from there instead (the writer may have been behind by
     * many writes since its last batch), as does every {@value #READ_EVERY_CONFLICTS}th one after it,
     * so that a writer far behind does not step through the epoch one refused write at a time.
     */
    private AppendsEpoch.Since follow(AppendsEpoch.Appended refused, int conflicts) {
        if (!refused.others().isEmpty() && conflicts > 1 && conflicts % READ_EVERY_CONFLICTS != 0) {
            return new AppendsEpoch.Since(refused.state(), refused.others());
        }
        AppendsEpoch.Since read = epochs.follow(partition, refused.state(), true);
        if (refused.others().isEmpty()) {
            return read;
        }
        List<EpochEvent> all = new ArrayList<>(refused.others());
        all.addAll(read.events());
        return new AppendsEpoch.Since(read.state(), all);
    }

    /**
     * Waits a random time up to {@link #mostWaitNanos} before following the writer that won and
     * writing again.
     */
    private void backOff(int conflicts) {
        long most = mostWaitNanos(config.conflictBackoff().toNanos(), conflicts);
        if (most > 0) {
            LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(most + 1));
        }
    }

    /**
     * The longest wait after {@code conflicts} lost races in a row, in steps of
     * {@code conflictBackoff} (see the indexer's README, "Many writers on one partition"): one step
     * per conflict, at most {@value #BACKOFF_STEPS}; none from the {@value #AGED_AFTER}th on.
     * <ul>
     *   <li>Writers racing for a partition are refused by all but one write per round, and DynamoDB
     *       charges every refused write; spread out, more of their writes land. Waiting from the first
     *       conflict did better than retrying it at once: a writer that retried at once kept the
     *       advantage over those waiting, and one of them lost 100 times in a row.</li>
     *   <li>A writer that has just won writes its next batch at once, while those it beat are still
     *       waiting: with a round trip of 5-10 ms and batches back to back, such a writer won again and
     *       again, and a writer it kept beating lost {@code maxConflictRetries} races in a row (its batch
     *       redelivered). A writer that has lost {@value #AGED_AFTER} in a row therefore stops waiting:
     *       it goes ahead of every writer that waits and races the winner's next write as an equal.</li>
     * </ul>
     */
    static long mostWaitNanos(long stepNanos, int conflicts) {
        return conflicts >= AGED_AFTER ? 0 : stepNanos * Math.min(conflicts, BACKOFF_STEPS);
    }

    /**
     * Where the streams the active epoch does not hold stand in the feed: as the closed epochs back to
     * the horizon say ({@link PriorEpochs}). A stream none of them holds cannot be a redelivery, and is
     * taken as it starts; whether its earlier events are in the feed is then not checked here (early gap
     * detection gives way to exactly once; {@code feed verify} finds such a gap). When every epoch was
     * consulted, such a stream was never in the feed: it starts at 0, and a span past 0 is healed from
     * its Tip or refused, unless the operator declared a store older than the feed.
     */
    private Map<StreamName, Long> prior(EpochId active, Set<StreamName> unknown, Instant horizon) {
        PriorEpochs.Found found = prior.lookup(active, unknown, horizon);
        if (!found.fromFirst() || config.storePredatesFeed()) {
            return found.next();
        }
        Map<StreamName, Long> next = new HashMap<>(found.next());
        unknown.forEach(stream -> next.putIfAbsent(stream, 0L));
        return next;
    }

    /** Drops the cached state: the next call reloads from the index (after a failure of unknown effect). */
    public synchronized void forget() {
        state = null;
    }

    private EpochState active() {
        if (state == null) {
            EpochId e = index.activeEpoch(partition);
            state = moveOnIfClosed(epochs.load(partition, e));
        }
        return state;
    }

    /** Heals a crash between closing an epoch and recording its successor, and follows other writers' closes. */
    private EpochState moveOnIfClosed(EpochState s) {
        while (s.isClosed()) {
            try {
                epochs.ensureTip(partition, s); // a closing write whose Tip update failed, or a writer that died there
            } catch (RuntimeException e) {
                log.warn("partition {} epoch {}: closed, but moving its Tip to its calves' end failed ({}); the epoch is"
                        + " complete in its calves, and the next writer to load it tries again", partition, s.epoch(), e.toString());
            }
            prior.remember(s);
            EpochId next = s.epoch().next();
            index.start(partition, next);
            log.info("partition {}: epoch {} closed, {} active", partition, s.epoch(), next);
            // taken as empty, not read (see AppendsEpoch.begun): an epoch's roll reads nothing
            s = epochs.begun(partition, next);
        }
        state = s;
        return s;
    }

    /**
     * Epochs closed before this hold none of the batch's events ({@link PriorEpochs}): the earliest time a
     * span's record was made, per DynamoDB (never a writer's clock), less the clock skew allowed between
     * DynamoDB and the indexers that stamped the epochs' close. Bounded by now (a time ahead of this
     * indexer's clock) and by the redelivery window (a source delivers nothing older; a span with no
     * time, such as a backfill's, looks back that far).
     */
    private Instant horizon(List<SourceSpan> spans) {
        Instant now = config.clock().instant();
        Instant floor = now.minus(config.redeliveryWindow());
        Instant earliest = now;
        for (SourceSpan s : spans) {
            Instant at = s.writtenAt() == null || s.writtenAt().isBefore(floor) ? floor : s.writtenAt();
            earliest = at.isBefore(earliest) ? at : earliest;
        }
        return earliest.minus(config.clockSkew());
    }

    private final class Counts {
        long accepted, duplicates, healed;
        int closed, writes, conflicts;

        PartitionOutcome outcome(EpochId epoch, int spans, int settled, RuntimeException error) {
            return new PartitionOutcome(partition, epoch, spans, settled, accepted, duplicates, healed, closed, writes, conflicts, error);
        }
    }
}
