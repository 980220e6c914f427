package io.appendsfeed.model.store.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.Capacity;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.ItemTooLargeException;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreItems;
import io.appendsfeed.model.store.StoredEvent;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/**
 * Calf-first appends (the index table's epochs): the new events go into an item of their own, keyed
 * by the index of the first of them, written with {@code PutItem} on the condition that no item has
 * that key; then the Tip, which holds no events, records the new version {@code n} with an
 * {@code UpdateItem} that only moves it forwards.
 *
 * <p>Why: DynamoDB charges a write by the size of the item it writes. A Tip-first append rewrites
 * every event still in the Tip, and a calving append writes them again in a transaction (twice the
 * units); here each append writes its own events once, plus a Tip of about 100 bytes (1 WCU).
 *
 * <p>Exactly one writer wins each index: every item starts where the one before it ends, so a
 * writer's expected version is always the key of the next item, and two writers deciding at the
 * same version race for the same key. The Tip only tells readers that start from it (Equinox's
 * loaders) how far the stream goes; if its update fails after the calf landed, the events are
 * durably in and the next append (or a read from the calves) brings the Tip up to date.
 *
 * <p>Where the Tip's update fails after the calf landed, {@link #ensureTip} brings it up to the
 * calves (a writer calls it at the end of its work, and again on a retry): the Tip may be behind for
 * that long, never ahead, and never absent once a calf is there and a writer has finished.
 *
 * <p>A Tip that holds events (written by a Tip-first writer) is drained once, in one transaction,
 * into a calf of its own before the first calf-first append. Tip-first and calf-first writers must
 * not write one stream at the same time.
 */
public final class CalfAppender {

    private static final Logger log = LoggerFactory.getLogger(CalfAppender.class);
    /** Tries to drain a Tip that other writers keep changing. */
    private static final int MAX_DRAIN_ATTEMPTS = 8;

    private final MeteredDynamo dynamo;
    private final TipState.Cache cache;
    private final StoreConfig config;

    public CalfAppender(MeteredDynamo dynamo, TipState.Cache cache, StoreConfig config) {
        this.dynamo = dynamo;
        this.cache = cache;
        this.config = config;
    }

    /**
     * Brings the Tip of {@code stream} up to {@code version}, the end of its calves as the caller read
     * or wrote them, when it is not known to be there (one {@code UpdateItem}, which only moves it
     * forwards; none when the Tip is known to be there): after a Tip update that failed, or a load that
     * found the Tip behind or absent.
     *
     * @return the capacity spent
     * @throws SdkException from DynamoDB; the Tip stays where it is
     */
    public Capacity ensureTip(StreamName stream, long version) {
        TipState tip = cache.get(stream);
        if (tip != null && tip.version() >= version) {
            return Capacity.NONE;
        }
        Capacity[] spent = {Capacity.NONE};
        advance(stream, version, tip == null ? 0 : tip.calfBytes(), -1, spent);
        return spent[0];
    }

    /** See {@code StoreClient.assumeNoTip}: a stream just begun has no Tip to read. */
    public void assumeNoTip(StreamName stream) {
        if (cache.get(stream) == null) {
            cache.put(stream, TipState.NONE);
        }
    }

    public AppendResult append(StreamName stream, long expected, List<EventData> events) {
        EventCodec.Entries encoded = EventCodec.entries(events, config.clock().instant(), config.compress());
        long next = expected + events.size();
        Map<String, AttributeValue> calf = TipWrites.calf(stream, expected, next,
                AttributeValue.fromL(encoded.types()), AttributeValue.fromL(encoded.entries()));
        long calfBytes = ItemSize.item(calf);
        if (calfBytes > StoreConfig.ITEM_MAX_BYTES) {
            throw new ItemTooLargeException(stream, calfBytes, StoreConfig.ITEM_MAX_BYTES,
                    "Split the append into several smaller appends, or make the events smaller.");
        }
        Capacity[] spent = {Capacity.NONE};
        TipState tip = cache.get(stream);
        if (tip == null) {
            tip = readTip(stream, spent);
        }
        for (int attempt = 0; tip != null && tip.eventCount() > 0 && tip.version() <= expected && attempt < MAX_DRAIN_ATTEMPTS; attempt++) {
            tip = drain(stream, tip, spent);
        }
        if (tip != null && (tip.version() > expected || tip.eventCount() > 0)) {
            return new AppendResult.Conflict(tip.version(), tip.etag(), spent[0]);
        }
        try {
            spent[0] = spent[0].plus(dynamo.putItem(PutItemRequest.builder().item(calf)
                    .conditionExpression("attribute_not_exists(#p)")
                    .expressionAttributeNames(Map.of("#p", Fields.P))
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)).capacity());
        } catch (ConditionalCheckFailedException e) {
            // another writer holds this index: what it wrote is in its item, which the refusal returns
            return held(stream, expected, tip, e, spent[0]);
        }
        long held = (tip == null ? 0 : tip.calfBytes()) + calfBytes;
        AppendResult withdrawn = advance(stream, next, held, expected, spent);
        return withdrawn != null ? withdrawn : new AppendResult.Written(next, cachedEtag(stream), false, spent[0]);
    }

    /**
     * The conflict of a calf refused at {@code expected}, with the events of the item that holds that key,
     * as the refusal returned it: the writer that won can be followed without reading the stream. Without
     * the item (a server that does not return it), or with one that cannot be read, nothing is found and
     * the caller reads.
     *
     * <p>The Tip as this appender knew it stays known, with the winner's calf counted in its calf bytes:
     * whether it holds events (it does not, among calf-first writers) is all the next append needs, so
     * the next append does not read it again. Without the item it is forgotten, and read again.
     */
    private AppendResult.Conflict held(StreamName stream, long expected, TipState tip, ConditionalCheckFailedException e,
                                       Capacity spent) {
        if (e.hasItem() && !e.item().isEmpty()) {
            try {
                Map<String, AttributeValue> item = e.item();
                if (!StoreItems.isTip(item) && StoreItems.rangeKey(item) == expected) {
                    List<StoredEvent> found = StoreItems.events(stream, item, true, expected, Long.MAX_VALUE);
                    if (!found.isEmpty()) {
                        long size = ItemSize.item(item);
                        TipState known = tip != null ? tip : TipState.NONE;
                        cache.put(stream, new TipState(known.version(), known.etag(), known.eventCount(), known.eventBytes(),
                                known.calfBytes() + size, known.item()));
                        return new AppendResult.Conflict(StoreItems.next(stream, item), null, spent, found);
                    }
                }
            } catch (RuntimeException unreadable) {
                log.debug("{}: the item that refused a calf at {} cannot be read here ({}); the caller reads the stream",
                        stream, expected, unreadable.toString());
            }
        }
        cache.remove(stream);
        return new AppendResult.Conflict(expected + 1, null, spent);
    }

    private String cachedEtag(StreamName stream) {
        TipState t = cache.get(stream);
        return t == null ? null : t.etag();
    }

    /**
     * Moves the Tip forwards to {@code next}. After a calf at {@code expected} ({@code expected >= 0}),
     * a Tip-first writer's events found at the same indexes withdraw the calf (the result: a conflict);
     * otherwise null.
     */
    private AppendResult advance(StreamName stream, long next, long held, long expected, Capacity[] spent) {
        String etag = TipWrites.newEtag();
        try {
            spent[0] = spent[0].plus(dynamo.updateItem(TipWrites.advanceTip(stream, next, held, etag)).capacity());
            cache.put(stream, new TipState(next, etag, 0, 0, held, null));
        } catch (ConditionalCheckFailedException e) {
            // another writer moved the Tip on already; the events above are in either way, unless it
            // was a Tip-first writer whose events in the Tip hold the same indexes as ours
            TipState now = e.hasItem() && !e.item().isEmpty() ? TipState.of(stream, e.item()) : null;
            if (expected >= 0 && now != null && now.eventCount() > 0 && now.version() > expected
                    && now.version() - now.eventCount() < next) {
                cache.remove(stream);
                return withdraw(stream, expected, next, now, spent);
            }
            if (now != null) {
                cache.put(stream, now);
            } else {
                cache.remove(stream);
            }
        } catch (SdkException e) {
            cache.remove(stream); // not known to be there: ensureTip moves it
            if (expected < 0) {
                throw e;
            }
            log.warn("{}: events {}..{} are in their own item, but moving the Tip to version {} failed ({}); the writer"
                    + " brings it up to date (ensureTip)", stream, expected, next - 1, next, e.toString());
        }
        return null;
    }

    /**
     * A Tip-first writer appended to the Tip while this append's calf was being written: both hold
     * indexes from {@code expected}. The Tip's events count (readers that start from the Tip see only
     * them); this append's calf is deleted again and the append is a conflict, to be decided again
     * after the other writer's events.
     */
    private AppendResult withdraw(StreamName stream, long expected, long next, TipState tip, Capacity[] spent) {
        log.error("{}: a Tip-first writer appended events {}..{} to the Tip while a calf-first append wrote {}..{};"
                + " withdrawing the latter. Only one kind of writer may write a stream", stream,
                tip.version() - tip.eventCount(), tip.version() - 1, expected, next - 1);
        try {
            spent[0] = spent[0].plus(dynamo.deleteItem(DeleteItemRequest.builder().key(TipWrites.key(stream, expected))
                    .conditionExpression("#n = :n").expressionAttributeNames(Map.of("#n", Fields.N))
                    .expressionAttributeValues(Map.of(":n", TipWrites.num(next)))).capacity());
        } catch (ConditionalCheckFailedException e) {
            log.error("{}: the calf at {} is no longer the one this append wrote; left as it is", stream, expected);
        }
        return new AppendResult.Conflict(tip.version(), tip.etag(), spent[0]);
    }

    /** Moves the Tip's events into a calf of their own, leaving a Tip with none; returns the Tip after. */
    private TipState drain(StreamName stream, TipState tip, Capacity[] spent) {
        if (tip.item() == null) {
            return readTip(stream, spent);
        }
        var outcome = TipWrites.calve(dynamo, stream, tip, new EventCodec.Entries(List.of(), List.of(), 0), List.of());
        if (outcome instanceof TipWrites.Outcome.Written w) {
            spent[0] = spent[0].plus(w.capacity());
            cache.put(stream, w.state());
            return w.state();
        }
        return readTip(stream, spent);
    }

    private TipState readTip(StreamName stream, Capacity[] spent) {
        var got = TipWrites.read(dynamo, stream, true);
        spent[0] = spent[0].plus(got.capacity());
        if (got.response() == null) {
            return null;
        }
        TipState state = TipState.of(stream, got.response());
        cache.put(stream, state);
        return state;
    }
}
