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
import java.util.HashSet;
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
    private final FeedHistory history;
    private final IndexerConfig config;
    private EpochState state; // the active epoch as last seen; a valid prefix of it even after a failed write

    public EpochIngester(PartitionId partition, AppendsEpoch epochs, KnownIndex index, IndexerConfig config,
                         FeedHistory.StoreTimes storeTimes) {
        this.partition = partition;
        this.epochs = epochs;
        this.index = index;
        this.prior = new PriorEpochs(epochs, partition);
        this.history = new FeedHistory(epochs, partition, config.redeliveryWindow(), config.clockSkew(), storeTimes);
        this.config = config;
    }

    /** Never throws: a failure is the outcome's {@code error}, with what was settled before it. The Tip ends up to date. */
    public synchronized PartitionOutcome ingest(List<SourceSpan> spans) {
        return ingest(spans, false);
    }

    /**
     * Never throws: a failure is the outcome's {@code error}, with what was settled before it.
     *
     * @param moreWaiting the source has more records waiting: the epoch's Tip may be left behind its
     *                    calves (for up to {@link IndexerConfig#tipLag()}); false brings it up to date
     */
    public synchronized PartitionOutcome ingest(List<SourceSpan> spans, boolean moreWaiting) {
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
                    Map<StreamName, Long> before = new HashMap<>(prior.lookup(s.epoch(), unknown, horizon));
                    Set<StreamName> unplaced = place(rest, unknown, before, s.epoch());
                    d = EpochDecider.decide(s, rest, before, unplaced, config.limits(), config.allowGaps());
                }
                if (d.writes()) {
                    boolean last = d.remainder() == null && d.consumed() == rest.size();
                    boolean moveTip = d.close() || (last && !moreWaiting) || tipBehindTooLong(s.epoch());
                    AppendsEpoch.Encoded bytes = carriedBytes != null ? carriedBytes : epochs.encode(d.events());
                    carriedBytes = null;
                    AppendsEpoch.Appended written = epochs.append(partition, s, bytes, moveTip);
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
            if (!moreWaiting) {
                epochs.moveTip(partition, s.epoch()); // when a write of this batch (or an earlier one) left it behind
            }
            return c.outcome(s.epoch(), spans.size(), settled, null);
        } catch (RuntimeException e) {
            if (!(e instanceof FeedGapException)) {
                log.warn("partition {}: {} of {} spans settled, then failed: {}", partition, settled, spans.size(), e.toString());
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
     * "Never a silent gap" for streams the recent epochs do not hold: a first span past index 0 is
     * placed in the older epochs (see {@link FeedHistory}); {@code before} gets what was found (0 for a
     * stream the feed never held, which the decider then heals from the Tip), and the streams whose
     * previous event never reached the feed are returned.
     */
    private Set<StreamName> place(List<SourceSpan> rest, Set<StreamName> unknown, Map<StreamName, Long> before, EpochId active) {
        Set<StreamName> unplaced = new HashSet<>();
        for (SourceSpan in : rest) {
            StreamName stream = in.span().stream();
            if (!unknown.remove(stream) || before.containsKey(stream) || in.span().index() == 0) {
                continue; // each stream once, by its first span; known ones and new streams need nothing
            }
            FeedHistory.Placement p = history.place(in, active);
            if (p instanceof FeedHistory.Placement.Found f) {
                before.put(stream, f.next());
            } else if (p instanceof FeedHistory.Placement.Unknown) {
                log.warn("partition {}: {} starts at {} and no recent epoch holds it; whether its earlier events are in the"
                        + " feed cannot be checked (no write time for event {}{}): accepted as it starts", partition, stream,
                        in.span().index(), in.span().index() - 1, config.storeTable() == null ? "; configure the store table" : "");
            } else if (config.storePredatesFeed()) {
                log.info("partition {}: {} starts at {}, its earlier events are not where their write times put them;"
                        + " accepted as it starts (storePredatesFeed)", partition, stream, in.span().index());
            } else if (p instanceof FeedHistory.Placement.Never) {
                before.put(stream, 0L);
            } else {
                unplaced.add(stream);
            }
        }
        return unplaced;
    }

    /**
     * Brings the active epoch's Tip up to date when a batch with more records waiting left it behind
     * (one write; none otherwise). A failure is logged, not thrown: the Tip only tells Tip-first
     * readers how far the epoch goes, and the next batch tries again.
     */
    public synchronized void moveTip() {
        if (state == null || epochs.tipBehindSince(partition, state.epoch()).isEmpty()) {
            return;
        }
        try {
            epochs.moveTip(partition, state.epoch());
        } catch (RuntimeException e) {
            log.warn("partition {} epoch {}: moving its Tip to the calves written here failed ({}); the next batch tries again",
                    partition, state.epoch(), e.toString());
        }
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

    /** Whether a write now would leave the Tip behind for {@code tipLag} or longer (always, with a lag of zero). */
    private boolean tipBehindTooLong(EpochId epoch) {
        Instant now = config.clock().instant();
        Instant since = epochs.tipBehindSince(partition, epoch).orElse(now);
        return !since.plus(config.tipLag()).isAfter(now);
    }

    /** Heals a crash between closing an epoch and recording its successor, and follows other writers' closes. */
    private EpochState moveOnIfClosed(EpochState s) {
        while (s.isClosed()) {
            if (epochs.tipBehindSince(partition, s.epoch()).isPresent()) {
                // another writer closed it after calves of ours: its Tip is theirs to move, but ours must not stay behind
                try {
                    epochs.moveTip(partition, s.epoch());
                } catch (RuntimeException e) {
                    log.warn("partition {} epoch {}: closed; moving its Tip to the calves written here failed ({}); the epoch"
                            + " is complete in its calves", partition, s.epoch(), e.toString());
                }
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

    /** Epochs closed before this cannot hold any of the spans: see {@link PriorEpochs}. */
    private Instant horizon(List<SourceSpan> spans) {
        Instant floor = config.clock().instant().minus(config.redeliveryWindow());
        Instant earliest = null;
        for (SourceSpan s : spans) {
            Instant h = s.writtenAt() == null || s.writtenAt().isBefore(floor) ? floor : s.writtenAt();
            earliest = earliest == null || h.isBefore(earliest) ? h : earliest;
        }
        return (earliest == null ? floor : earliest).minus(config.clockSkew());
    }

    private final class Counts {
        long accepted, duplicates, healed;
        int closed, writes, conflicts;

        PartitionOutcome outcome(EpochId epoch, int spans, int settled, RuntimeException error) {
            return new PartitionOutcome(partition, epoch, spans, settled, accepted, duplicates, healed, closed, writes, conflicts, error);
        }
    }
}
