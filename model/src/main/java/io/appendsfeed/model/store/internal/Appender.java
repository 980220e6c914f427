package io.appendsfeed.model.store.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.ItemTooLargeException;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreItems;
import io.appendsfeed.model.store.Unfold;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * The two ways to append, deciding from the Tip's state (the cache's when it satisfies the expectation, else
 * a consistent {@code GetItem}). Every write is conditioned on that state's version and etag, so a write lands
 * only on the Tip it was decided for.
 *
 * <p>Tip-first ({@link #append}): a new stream, a Tip update or a calving transaction, looping on what a failed
 * condition returns. Calf-first ({@link #appendAsCalf}): the events go into an item keyed by the first one's
 * index, written only if no item has that key, so exactly one writer wins each index; the writer moves the Tip,
 * holding no events, forwards when it chooses ({@link #ensureTip}): it may lag the calves, never lead them. A Tip
 * holding events is drained into a calf first. The two kinds of writer must not write one stream at the same time.
 */
public final class Appender {

    private static final Logger log = LoggerFactory.getLogger(Appender.class);
    /** Writes tried per append (or drains of a Tip); each failure brings a fresher Tip. */
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
                state = readTip(dynamo, stream);
                absent = state == null;
            }
            if (state != null && !state.satisfies(expected) || absent && expected instanceof Expected.Etag
                    || absent && expected instanceof Expected.Version v && v.version() != 0) {
                return conflict(stream, state);
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
                return new AppendResult.Written(w.state().version(), w.state().etag(), calve);
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
        return conflict(stream, state);
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

    private AppendResult conflict(StreamName stream, TipState state) {
        if (state == null) {
            return new AppendResult.Conflict(0, null);
        }
        cache.put(stream, state);
        return new AppendResult.Conflict(state.version(), state.etag());
    }

    private List<AttributeValue> encodeUnfolds(List<Unfold> unfolds, long version, Instant now) {
        return unfolds.stream().map(u -> EventCodec.unfold(u, version, now, config.compress())).toList();
    }

    /**
     * @throws SdkException from DynamoDB; the Tip stays where it is
     * @throws IllegalStateException when a Tip-first writer appended to the Tip at indexes calves hold
     */
    public void ensureTip(MeteredDynamo dynamo, StreamName stream, long version) {
        TipState tip = cache.get(stream);
        if (tip == null || tip.version() < version) {
            advance(dynamo, stream, version, tip == null ? 0 : tip.calfBytes());
        }
    }

    /** @throws SdkException from DynamoDB; the Tip stays where it is */
    public boolean moveTipToCalves(MeteredDynamo dynamo, StreamName stream) {
        List<Map<String, AttributeValue>> last = dynamo.query(QueryRequest.builder().keyConditionExpression("#p = :p")
                .expressionAttributeNames(Map.of("#p", StoreItems.STREAM))
                .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(stream.value())))
                .scanIndexForward(false).limit(2).consistentRead(true)).items(); // the Tip sorts last, then the last calf
        TipState tip = last.isEmpty() || !StoreItems.isTip(last.get(0)) ? null : TipState.of(stream, last.get(0));
        Map<String, AttributeValue> calf = last.stream().filter(i -> !StoreItems.isTip(i)).findFirst().orElse(null);
        if (calf != null && (tip == null || tip.eventCount() == 0 && tip.version() < StoreItems.next(stream, calf))) {
            cache.remove(stream);
            advance(dynamo, stream, StoreItems.next(stream, calf), tip == null ? 0 : tip.calfBytes());
            return true;
        }
        return false;
    }

    /** Writes the calf alone: the Tip stays where it was until {@link #ensureTip} or {@link #moveTipToCalves} moves it. */
    public AppendResult appendAsCalf(MeteredDynamo dynamo, StreamName stream, long expected, List<EventData> events) {
        EventCodec.Entries encoded = EventCodec.entries(events, config.clock().instant(), config.compress());
        long next = expected + events.size();
        Map<String, AttributeValue> calf = TipWrites.calf(stream, expected, next,
                AttributeValue.fromL(encoded.types()), AttributeValue.fromL(encoded.entries()));
        long calfBytes = ItemSize.item(calf);
        if (calfBytes > StoreConfig.ITEM_MAX_BYTES) {
            throw new ItemTooLargeException(stream, calfBytes, StoreConfig.ITEM_MAX_BYTES,
                    "Split the append into several smaller appends, or make the events smaller.");
        }
        TipState tip = cache.get(stream);
        if (tip == null) {
            tip = readTip(dynamo, stream);
        }
        for (int attempt = 0; tip != null && tip.eventCount() > 0 && tip.version() <= expected && attempt < MAX_ATTEMPTS; attempt++) {
            tip = drain(dynamo, stream, tip);
        }
        if (tip != null && (tip.version() > expected || tip.eventCount() > 0)) {
            return new AppendResult.Conflict(tip.version(), tip.etag());
        }
        try {
            dynamo.putItem(PutItemRequest.builder().item(calf)
                    .conditionExpression("attribute_not_exists(#p)")
                    .expressionAttributeNames(Map.of("#p", StoreItems.STREAM)));
        } catch (ConditionalCheckFailedException e) {
            cache.remove(stream); // another writer holds this index
            return new AppendResult.Conflict(expected + 1, null);
        }
        // the Tip stays where it was; what the calves hold is counted for when it moves
        TipState behind = tip == null ? TipState.NONE : tip;
        cache.put(stream, new TipState(behind.version(), behind.etag(), 0, 0, behind.calfBytes() + calfBytes, null));
        return new AppendResult.Written(next, behind.etag(), false);
    }

    /**
     * Moves the Tip forwards to {@code next}, never over events.
     *
     * @throws IllegalStateException when a Tip-first writer appended to the Tip at indexes calves hold
     */
    private void advance(MeteredDynamo dynamo, StreamName stream, long next, long held) {
        String etag = TipWrites.newEtag();
        try {
            dynamo.updateItem(TipWrites.advanceTip(stream, next, held, etag));
            cache.put(stream, new TipState(next, etag, 0, 0, held, null));
        } catch (ConditionalCheckFailedException e) {
            TipState now = e.hasItem() && !e.item().isEmpty() ? TipState.of(stream, e.item()) : null;
            if (now != null && now.eventCount() > 0 && now.version() - now.eventCount() < next) {
                cache.remove(stream);
                throw new IllegalStateException(stream + ": a Tip-first writer appended events " + (now.version() - now.eventCount())
                        + ".." + (now.version() - 1) + " to the Tip while calves held indexes up to " + (next - 1) + ". Only one kind"
                        + " of writer may write a stream: stop the other writer (another indexer on this index table?)");
            }
            if (now != null) { // another writer moved it on
                cache.put(stream, now);
            } else {
                cache.remove(stream);
            }
        } catch (SdkException e) {
            cache.remove(stream); // not known to be there
            throw e;
        }
    }

    /** Moves the Tip's events into a calf of their own, leaving a Tip with none; returns the Tip after. */
    private TipState drain(MeteredDynamo dynamo, StreamName stream, TipState tip) {
        if (tip.item() != null && TipWrites.calve(dynamo, stream, tip, EventCodec.Entries.NONE, List.of())
                instanceof TipWrites.Outcome.Written w) {
            cache.put(stream, w.state());
            return w.state();
        }
        return readTip(dynamo, stream);
    }

    private TipState readTip(MeteredDynamo dynamo, StreamName stream) {
        var item = TipWrites.read(dynamo, stream, true);
        if (item == null) {
            return null;
        }
        TipState state = TipState.of(stream, item);
        cache.put(stream, state);
        return state;
    }
}
