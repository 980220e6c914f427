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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Tip-first appends (and unfold-only writes): decides from the Tip's state between a new stream, a
 * Tip update and a calving transaction, and loops on what a failed condition returns until the
 * write lands or the expectation is shown not to hold.
 *
 * <p>The state comes from the cache when it satisfies the expectation, else from one consistent
 * {@code GetItem} (a new stream expected at version 0 skips it: its {@code PutItem} returns the
 * existing Tip if there is one). Every write is conditioned on the state's version and etag, so
 * whatever the cache says, a write lands only on the Tip it was decided for.
 */
public final class Appender {

    private static final Logger log = LoggerFactory.getLogger(Appender.class);
    /** Writes tried per append; each failure brings a fresher Tip, so more means heavy contention. */
    static final int MAX_ATTEMPTS = 8;

    private final TipState.Cache cache;
    private final StoreConfig config;

    public Appender(TipState.Cache cache, StoreConfig config) {
        this.cache = cache;
        this.config = config;
    }

    /** {@code events} may be empty only for an unfold-only write ({@code a = 0}). */
    public AppendResult append(MeteredDynamo dynamo, StreamName stream, Expected expected, List<EventData> events,
                               List<Unfold> unfolds) {
        Instant now = config.clock().instant();
        EventCodec.Entries encoded = EventCodec.entries(events, now, config.compress());
        long fixed = TipWrites.fixedTipSize(stream, encodeUnfolds(unfolds, Long.MAX_VALUE, now));
        if (fixed + encoded.bytes() > StoreConfig.ITEM_MAX_BYTES) {
            throw new ItemTooLargeException(stream, fixed + encoded.bytes(), StoreConfig.ITEM_MAX_BYTES, events.isEmpty()
                    ? "Make the unfolds smaller (they are kept in the Tip with its events)."
                    : "Split the append into several smaller appends, or make the events smaller "
                    + "(compress them, or store large payloads elsewhere and append a reference).");
        }
        TipState state = cache.get(stream);
        if (state != null && !state.satisfies(expected)) {
            state = null; // the cache may be stale: decide from a fresh Tip
        }
        // a stream expected not to exist is tried straight away: the failed Put returns the Tip if there is one
        boolean absent = state == null && (expected.equals(Expected.noStream()) || expected instanceof Expected.Absent);
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            if (state == null && !absent) {
                var tip = TipWrites.read(dynamo, stream, true);
                absent = tip == null;
                state = absent ? null : TipState.of(stream, tip);
            }
            if (state != null && !state.satisfies(expected) || absent && expected instanceof Expected.Etag
                    || absent && expected instanceof Expected.Version v && v.version() != 0) {
                return conflict(stream, state, dynamo.spent());
            }
            boolean calve = state != null && mustCalve(state, encoded, fixed);
            if (calve && state.item() == null) {
                state = null; // calving copies the Tip's events: read them
                continue;
            }
            List<AttributeValue> u = encodeUnfolds(unfolds, (absent ? 0 : state.version()) + events.size(), now);
            TipWrites.Outcome outcome = absent ? TipWrites.putNew(dynamo, stream, encoded, u)
                    : calve ? TipWrites.calve(dynamo, stream, state, encoded, u)
                    : TipWrites.update(dynamo, stream, state, encoded, u);
            if (outcome instanceof TipWrites.Outcome.Written w) {
                cache.put(stream, w.state());
                return new AppendResult.Written(w.state().version(), w.state().etag(), calve, dynamo.spent());
            }
            TipWrites.Outcome.Refused refused = (TipWrites.Outcome.Refused) outcome;
            absent = refused.tipKnown() && refused.tip() == null;
            state = refused.tip() == null ? null : TipState.of(stream, refused.tip());
            if (!refused.tipKnown()) {
                log.warn("append to {} met a concurrent transaction (attempt {}); reading the Tip again", stream, attempt);
                cache.remove(stream);
            } else if (state != null) {
                cache.put(stream, state);
            }
        }
        log.warn("append to {} gave up after {} attempts: other writers kept changing the Tip", stream, MAX_ATTEMPTS);
        return conflict(stream, state, dynamo.spent());
    }

    private boolean mustCalve(TipState state, EventCodec.Entries events, long fixed) {
        if (state.eventCount() == 0) {
            return false; // nothing to move; the up-front check guarantees the new events fit alone
        }
        int appended = events.entries().size();
        boolean full = appended > 0 && (state.eventBytes() + events.bytes() > config.tipMaxBytes()
                || (long) state.eventCount() + appended > config.tipMaxEvents());
        return full || fixed + state.eventBytes() + events.bytes() > StoreConfig.ITEM_MAX_BYTES;
    }

    private AppendResult conflict(StreamName stream, TipState state, Capacity spent) {
        if (state == null) {
            return new AppendResult.Conflict(0, null, spent);
        }
        cache.put(stream, state);
        return new AppendResult.Conflict(state.version(), state.etag(), spent);
    }

    private List<AttributeValue> encodeUnfolds(List<Unfold> unfolds, long version, Instant now) {
        List<AttributeValue> out = new ArrayList<>(unfolds.size());
        for (Unfold u : unfolds) {
            out.add(EventCodec.unfold(u, version, now, config.compress()));
        }
        return out;
    }
}
