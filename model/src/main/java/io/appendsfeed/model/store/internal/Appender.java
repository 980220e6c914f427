package io.appendsfeed.model.store.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.Capacity;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.ItemTooLargeException;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.Unfold;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;

/**
 * Appends (and unfold-only writes): decides from the Tip's state between a new stream, a Tip update
 * and a calving transaction, and loops on what a failed condition returns until the write lands
 * or the expectation is shown not to hold.
 *
 * <p>The state comes from the {@link TipCache} when it satisfies the expectation, else from one
 * consistent {@code GetItem} (a new stream expected at version 0 skips it: its {@code PutItem}
 * returns the existing Tip if there is one). Every write is conditioned on the state's version and
 * etag, so whatever the cache says, a write lands only on the Tip it was decided for.
 */
public final class Appender {

    private static final Logger log = LoggerFactory.getLogger(Appender.class);
    /** Writes tried per append; each failure brings a fresher Tip, so more means heavy contention. */
    static final int MAX_ATTEMPTS = 8;

    private final MeteredDynamo dynamo;
    private final TipCache cache;
    private final StoreConfig config;

    public Appender(MeteredDynamo dynamo, TipCache cache, StoreConfig config) {
        this.dynamo = dynamo;
        this.cache = cache;
        this.config = config;
    }

    /** {@code events} may be empty only for an unfold-only write ({@code a = 0}). */
    public AppendResult append(StreamName stream, Expected expected, List<EventData> events, List<Unfold> unfolds) {
        Instant now = config.clock().instant();
        EventCodec.Entries encoded = EventCodec.entries(events, now, config.compress());
        List<AttributeValue> entries = encoded.entries();
        List<AttributeValue> types = encoded.types();
        long newBytes = encoded.bytes();
        long fixed = TipWrites.fixedTipSize(stream, encodeUnfolds(unfolds, Long.MAX_VALUE, now));
        if (fixed + newBytes > StoreConfig.ITEM_MAX_BYTES) {
            throw new ItemTooLargeException(stream, fixed + newBytes, StoreConfig.ITEM_MAX_BYTES, events.isEmpty()
                    ? "Make the unfolds smaller (they are kept in the Tip with its events)."
                    : "Split the append into several smaller appends, or make the events smaller "
                    + "(compress them, or store large payloads elsewhere and append a reference).");
        }
        Attempt attempt = new Attempt(stream, entries, types, newBytes, fixed, unfolds, now);
        return attempt.run(expected);
    }

    private List<AttributeValue> encodeUnfolds(List<Unfold> unfolds, long version, Instant now) {
        List<AttributeValue> out = new ArrayList<>(unfolds.size());
        for (Unfold u : unfolds) {
            out.add(EventCodec.unfold(u, version, now, config.compress()));
        }
        return out;
    }

    /** One append's loop: its encoded events, and the capacity spent so far. */
    private final class Attempt {
        private final StreamName stream;
        private final List<AttributeValue> entries;
        private final List<AttributeValue> types;
        private final long newBytes;
        private final long fixed;
        private final List<Unfold> unfolds;
        private final Instant now;
        private Capacity spent = Capacity.NONE;

        Attempt(StreamName stream, List<AttributeValue> entries, List<AttributeValue> types, long newBytes, long fixed,
                List<Unfold> unfolds, Instant now) {
            this.stream = stream;
            this.entries = entries;
            this.types = types;
            this.newBytes = newBytes;
            this.fixed = fixed;
            this.unfolds = unfolds;
            this.now = now;
        }

        AppendResult run(Expected expected) {
            TipState state = cache.get(stream);
            if (state != null && !state.satisfies(expected)) {
                state = null; // the cache may be stale: decide from a fresh Tip
            }
            // a stream expected not to exist is tried straight away: the failed Put returns the Tip if there is one
            boolean absent = state == null && (expected.equals(Expected.noStream()) || expected instanceof Expected.Absent);
            for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
                if (state == null && !absent) {
                    Map<String, AttributeValue> item = readTip();
                    absent = item == null;
                    state = absent ? null : TipState.of(stream, item);
                }
                if (state != null && !state.satisfies(expected) || absent && expected instanceof Expected.Etag) {
                    return conflict(state);
                }
                if (absent && expected instanceof Expected.Version v && v.version() != 0) {
                    return conflict(null);
                }
                boolean calve = state != null && mustCalve(state);
                if (calve && state.item() == null) {
                    state = null; // calving copies the Tip's events: read them
                    continue;
                }
                TipWriteOutcome outcome = absent ? TipCommands.putNew(dynamo, stream, entries, types, newBytes, encodeUnfolds(unfolds, entries.size(), now))
                        : calve ? TipCommands.calve(dynamo, stream, state, entries, types, newBytes, encodeUnfolds(unfolds, state.version() + entries.size(), now))
                        : TipCommands.update(dynamo, stream, state, entries, types, newBytes, encodeUnfolds(unfolds, state.version() + entries.size(), now));
                spent = spent.plus(outcome.capacity());
                if (outcome instanceof TipWriteOutcome.Written w) {
                    cache.put(stream, w.state());
                    return new AppendResult.Written(w.state().version(), w.state().etag(), calve, spent);
                }
                TipWriteOutcome.Refused refused = (TipWriteOutcome.Refused) outcome;
                if (!refused.tipKnown()) {
                    log.warn("append to {} met a concurrent transaction (attempt {}); reading the Tip again", stream, attempt);
                    cache.remove(stream);
                    state = null;
                    absent = false;
                } else if (refused.tip() == null) {
                    state = null;
                    absent = true;
                } else {
                    state = TipState.of(stream, refused.tip());
                    absent = false;
                    cache.put(stream, state);
                }
            }
            log.warn("append to {} gave up after {} attempts: other writers kept changing the Tip", stream, MAX_ATTEMPTS);
            return conflict(state);
        }

        private boolean mustCalve(TipState state) {
            if (state.eventCount() == 0) {
                return false; // nothing to move; the up-front check guarantees the new events fit alone
            }
            boolean full = !entries.isEmpty() && (state.eventBytes() + newBytes > config.tipMaxBytes()
                    || (long) state.eventCount() + entries.size() > config.tipMaxEvents());
            return full || fixed + state.eventBytes() + newBytes > StoreConfig.ITEM_MAX_BYTES;
        }

        private Map<String, AttributeValue> readTip() {
            var got = dynamo.getItem(GetItemRequest.builder().key(TipWrites.key(stream, Fields.TIP_INDEX)).consistentRead(true));
            spent = spent.plus(got.capacity());
            return got.response().hasItem() && !got.response().item().isEmpty() ? got.response().item() : null;
        }

        private AppendResult conflict(TipState state) {
            if (state != null) {
                cache.put(stream, state);
            }
            return state == null ? new AppendResult.Conflict(0, null, spent)
                    : new AppendResult.Conflict(state.version(), state.etag(), spent);
        }
    }
}
