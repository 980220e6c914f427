package io.appendsfeed.indexer.internal;

import io.appendsfeed.indexer.BatchOutcome.PartitionOutcome;
import io.appendsfeed.indexer.FeedGapException;
import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.SourceSpan;
import io.appendsfeed.model.Decider;
import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.feed.AppendsEpoch.EpochState;
import io.appendsfeed.model.feed.AppendsEpoch.EpochWrite;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.CapacityMeter;
import io.appendsfeed.model.store.CapacityMeter.Capacity;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Ingests spans into one partition exactly once, walking its epochs as Propulsion's
 * {@code ExactlyOnceIngester} does: the active epoch's decide ({@link AppendsEpoch#transact}, which
 * resyncs on conflicts) takes what is new; when the epoch closes, the successor is recorded in the index
 * and the rest goes there. Streams the active epoch does not hold are looked up in the closed epochs
 * ({@link PriorEpochs}). Thread-safe (one call at a time).
 */
public final class EpochIngester {

    private static final Logger log = LoggerFactory.getLogger(EpochIngester.class);

    /**
     * How long the active epoch's Tip may stay behind its calves while the source says more is waiting: Tip-first
     * readers (equinox-js, Propulsion) and the notifier see a busy partition at most this late, and a backlog pays
     * the Tip's write unit and round trip once a second instead of once a batch (DESIGN.md, "The Tip follows").
     */
    static final Duration TIP_LAG = Duration.ofSeconds(1);

    private final PartitionId partition;
    private final StoreClient store;
    private final AppendsEpoch epochs;
    private final KnownIndex index;
    private final PriorEpochs prior;
    private final IndexerConfig config;
    /** What this partition's calls consumed in the batch at hand; null when nobody asks (no metrics, no meter). */
    private final Tally tally;
    private EpochState state; // the active epoch as last seen, a valid prefix of it even after a failed write; null: load it
    private Instant tipMoved; // when this ingester last moved (or found) the active epoch's Tip at its calves' end, or began

    public EpochIngester(PartitionId partition, DynamoDbClient dynamo, KnownIndex index, IndexerConfig config) {
        this.partition = partition;
        this.index = index;
        this.config = config;
        this.tally = config.metrics().enabled() || config.meter() != CapacityMeter.NONE ? new Tally(config.meter()) : null;
        this.store = new StoreClient(dynamo, StoreConfig.builder(config.indexTable()).reservedStreams(true)
                .meter(tally == null ? CapacityMeter.NONE : tally).clock(config.clock()).build());
        this.epochs = new AppendsEpoch(store, config.clock(), new Decider.Conflicts(config.maxConflictRetries(), config.conflictBackoff()));
        this.prior = new PriorEpochs(epochs, partition);
        this.tipMoved = config.clock().instant();
    }

    /**
     * Never throws: a failure is the outcome's {@code error}, with what was settled before it. The active
     * epoch's Tip ends up at its calves' end, unless {@code moreWaiting} and this ingester moved it less than
     * {@link #TIP_LAG} ago; when it cannot be moved there, the batch fails from its first span (its spans are in;
     * redelivered, they are duplicates, and the retry moves the Tip).
     *
     * @param moreWaiting the source has more records waiting now: the batch after this one comes at once
     */
    public synchronized PartitionOutcome ingest(List<SourceSpan> spans, boolean moreWaiting) {
        long accepted = 0, duplicates = 0, healed = 0;
        int settled = 0, closed = 0, writes = 0, conflicts = 0;
        RuntimeException error = null;
        try {
            Instant horizon = horizon(spans);
            List<SourceSpan> rest = spans;
            if (state == null) {
                state = moveOnIfClosed(epochs.load(partition, index.activeEpoch(store, partition)));
            }
            while (!rest.isEmpty()) {
                var prior = this.prior.lookup(state, rest.stream().map(x -> x.span().stream()).toList(), horizon, config.storePredatesFeed());
                var t = epochs.transact(partition, state, rest, prior, config.limits(), config.allowGaps());
                EpochWrite d = t.result();
                state = t.loaded().state();
                conflicts += t.conflicts();
                writes += d.events().isEmpty() ? 0 : 1;
                closed += d.close() ? 1 : 0;
                accepted += d.acceptedEvents();
                duplicates += d.duplicateEvents();
                healed += d.healedEvents();
                if (d.healedEvents() > 0) {
                    log.warn("partition {} epoch {}: {} events missing from the records indexed from the Tips", partition, state.epoch(), d.healedEvents());
                }
                d.allowedGaps().forEach(g -> log.warn("partition {}: allowed gap: {}", partition, FeedGapException.of(g).getMessage()));
                settled += d.consumed();
                rest = rest.subList(d.consumed(), rest.size());
                if (d.remainder() != null) { // the rest of a span too big for one write goes first in the next
                    rest = Stream.concat(Stream.of(rest.get(0).with(d.remainder())), rest.stream().skip(1)).toList();
                }
                if (d.gap() != null) { // decided on the epoch as last seen: another indexer may have written the missing events since
                    EpochState seen = state;
                    if (moveOnIfClosed(epochs.catchUp(partition, seen, true)).equals(seen)) {
                        throw FeedGapException.of(d.gap());
                    }
                }
                state = moveOnIfClosed(state);
            }
        } catch (RuntimeException e) {
            if (!(e instanceof FeedGapException)) {
                log.warn("partition {}: {} of {} spans settled, then failed: {}", partition, settled, spans.size(), e.toString());
            }
            error = e;
        }
        try {
            if (!moreWaiting || config.clock().instant().isAfter(tipMoved.plus(TIP_LAG))) {
                moveTip();
            }
        } catch (RuntimeException e) {
            log.warn("partition {} epoch {}: its Tip cannot be moved to its calves' end ({}); the batch is delivered again to move it",
                    partition, state.epoch(), e.toString());
            settled = error == null ? 0 : settled;
            error = error == null ? e : error;
        }
        return new PartitionOutcome(partition, state == null ? EpochId.ZERO : state.epoch(), spans.size(), settled, accepted,
                duplicates, healed, closed, writes, conflicts, tally == null ? Capacity.NONE : tally.take(), error);
    }

    /** Moves the active epoch's Tip to the calves this ingester wrote or read, unless it is known to be there. */
    public synchronized void moveTip() {
        if (state != null && !state.isClosed()) {
            epochs.ensureTip(partition, state);
            tipMoved = config.clock().instant();
        }
    }

    /** Rolls on from a closed epoch: heals a crash between closing it and recording its successor, and follows other writers' closes. */
    private EpochState moveOnIfClosed(EpochState s) {
        while (s.isClosed()) {
            try {
                epochs.ensureTip(partition, s); // a closing write whose Tip update failed, or a writer that died there
            } catch (RuntimeException e) {
                log.warn("partition {} epoch {}: closed, but moving its Tip to its calves' end failed ({}); the next writer to"
                        + " load it tries again", partition, s.epoch(), e.toString());
            }
            prior.remember(s);
            EpochId next = s.epoch().next();
            index.start(store, partition, next);
            log.info("partition {}: epoch {} closed, {} active", partition, s.epoch(), next);
            s = EpochState.empty(next); // taken as empty unread: if another writer began it, the first write conflicts and catches up
        }
        return state = s;
    }

    /**
     * Epochs closed before this hold none of the batch's events: the earliest time a span's record was made, per
     * DynamoDB, bounded by the redelivery window (a span with no time looks back that far), less the clock skew.
     */
    private Instant horizon(List<SourceSpan> spans) {
        Instant now = config.clock().instant();
        Instant floor = now.minus(config.redeliveryWindow());
        Instant earliest = Stream.concat(Stream.of(now), spans.stream().map(s -> s.writtenAt() == null || s.writtenAt().isBefore(floor)
                ? floor : s.writtenAt())).min(Comparator.naturalOrder()).orElseThrow();
        return earliest.minus(config.clockSkew());
    }

    /** Adds up the capacity of this partition's calls, passing each on to the user's meter. */
    private static final class Tally implements CapacityMeter {
        private final CapacityMeter next;
        private Capacity total = Capacity.NONE;

        Tally(CapacityMeter next) {
            this.next = next;
        }

        @Override
        public synchronized void consumed(String operation, String table, Capacity capacity) {
            total = total.plus(capacity);
            next.consumed(operation, table, capacity);
        }

        @Override
        public void refused(String operation, String table) {
            next.refused(operation, table);
        }

        /** The total since the last call. */
        synchronized Capacity take() {
            Capacity t = total;
            total = Capacity.NONE;
            return t;
        }
    }
}
