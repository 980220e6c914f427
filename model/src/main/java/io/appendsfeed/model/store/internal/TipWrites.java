package io.appendsfeed.model.store.internal;

import static io.appendsfeed.model.store.StoreItems.APPENDED;
import static io.appendsfeed.model.store.StoreItems.CALF_BYTES;
import static io.appendsfeed.model.store.StoreItems.ETAG;
import static io.appendsfeed.model.store.StoreItems.EVENTS;
import static io.appendsfeed.model.store.StoreItems.NEXT;
import static io.appendsfeed.model.store.StoreItems.RANGE;
import static io.appendsfeed.model.store.StoreItems.STREAM;
import static io.appendsfeed.model.store.StoreItems.TIP_INDEX;
import static io.appendsfeed.model.store.StoreItems.TYPES;
import static io.appendsfeed.model.store.StoreItems.UNFOLDS;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.StoreFormatException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The items of the format and the Tip's conditional writes. A refused write carries the current Tip, read from
 * the failure itself ({@code ReturnValuesOnConditionCheckFailure=ALL_OLD}).
 */
public final class TipWrites {

    sealed interface Outcome {
        record Written(TipState state) implements Outcome {}

        /** {@code tip}: the current Tip, null when there is none; not known after a concurrent transaction's refusal. */
        record Refused(boolean tipKnown, Map<String, AttributeValue> tip) implements Outcome {}
    }

    private static final Outcome.Refused UNKNOWN = new Outcome.Refused(false, null);
    /** 32 hex digits, like Equinox's GUIDs in "N" format. */
    static final int ETAG_LENGTH = 32;

    private TipWrites() {}

    static String newEtag() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    static Map<String, AttributeValue> key(StreamName stream, long i) {
        return Map.of(STREAM, AttributeValue.fromS(stream.value()), RANGE, num(i));
    }

    static Map<String, AttributeValue> tip(StreamName stream, long n, long appended, long calfBytes, String etag,
                                           List<AttributeValue> types, List<AttributeValue> events, List<AttributeValue> unfolds) {
        Map<String, AttributeValue> item = new LinkedHashMap<>(key(stream, TIP_INDEX));
        item.put(NEXT, num(n));
        item.put(APPENDED, num(appended));
        item.put(CALF_BYTES, num(calfBytes));
        item.put(ETAG, AttributeValue.fromS(etag));
        item.put(TYPES, AttributeValue.fromL(types));
        item.put(EVENTS, AttributeValue.fromL(events));
        item.put(UNFOLDS, AttributeValue.fromL(unfolds));
        return item;
    }

    /** Events {@code first..n-1}; no {@code a}, {@code b}, {@code etag}. */
    static Map<String, AttributeValue> calf(StreamName stream, long first, long n, AttributeValue types, AttributeValue events) {
        Map<String, AttributeValue> item = new LinkedHashMap<>(key(stream, first));
        item.put(NEXT, num(n));
        item.put(TYPES, types);
        item.put(EVENTS, events);
        item.put(UNFOLDS, AttributeValue.fromL(List.of()));
        return item;
    }

    /** Bytes of a Tip holding {@code unfolds} and no events, with the largest numbers and an etag. */
    static long fixedTipSize(StreamName stream, List<AttributeValue> unfolds) {
        return ItemSize.item(tip(stream, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, "0".repeat(ETAG_LENGTH),
                List.of(), List.of(), unfolds));
    }

    /** The Tip item, or null when there is none. */
    public static Map<String, AttributeValue> read(MeteredDynamo dynamo, StreamName stream, boolean consistent) {
        GetItemResponse got = dynamo.getItem(GetItemRequest.builder().key(key(stream, TIP_INDEX)).consistentRead(consistent));
        return got.hasItem() && !got.item().isEmpty() ? got.item() : null;
    }

    static Outcome putNew(MeteredDynamo dynamo, StreamName stream, EventCodec.Entries events, List<AttributeValue> unfolds) {
        String etag = newEtag();
        long n = events.entries().size();
        return attempt(() -> dynamo.putItem(PutItemRequest.builder().item(tip(stream, n, n, 0, etag, events.types(), events.entries(), unfolds))
                .conditionExpression("attribute_not_exists(#p)").expressionAttributeNames(Map.of("#p", STREAM))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)),
                new TipState(n, etag, (int) n, events.bytes(), 0, null));
    }

    /** Appends to the Tip's lists and replaces the rest. */
    static Outcome update(MeteredDynamo dynamo, StreamName stream, TipState state, EventCodec.Entries events,
                          List<AttributeValue> unfolds) {
        String etag = newEtag();
        int appended = events.entries().size();
        long n = state.version() + appended;
        Map<String, String> names = new HashMap<>(Map.of("#n", NEXT, "#a", APPENDED, "#b", CALF_BYTES, "#etag", ETAG, "#u", UNFOLDS));
        Map<String, AttributeValue> values = new HashMap<>();
        String condition = pin(state, values);
        values.putAll(Map.of(":n", num(n), ":a", num(appended), ":b", num(state.calfBytes()),
                ":etag", AttributeValue.fromS(etag), ":u", AttributeValue.fromL(unfolds)));
        String set = "SET #n = :n, #a = :a, #b = :b, #etag = :etag, #u = :u" + (appended == 0 ? ""
                : ", #e = list_append(if_not_exists(#e, :empty), :e), #c = list_append(if_not_exists(#c, :empty), :c)");
        if (appended > 0) {
            names.putAll(Map.of("#e", EVENTS, "#c", TYPES));
            values.putAll(Map.of(":e", AttributeValue.fromL(events.entries()), ":c", AttributeValue.fromL(events.types()),
                    ":empty", AttributeValue.fromL(List.of())));
        }
        return attempt(() -> dynamo.updateItem(UpdateItemRequest.builder().key(key(stream, TIP_INDEX))
                .updateExpression(set).conditionExpression(condition)
                .expressionAttributeNames(names).expressionAttributeValues(values)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)),
                new TipState(n, etag, state.eventCount() + appended, state.eventBytes() + events.bytes(), state.calfBytes(), null));
    }

    /**
     * One transaction: a calf holds the Tip's events as stored (others' encodings and timestamps survive), the
     * Tip is rewritten with only the new events. {@code state} must hold the Tip's item.
     *
     * @throws StoreFormatException when an item already has the calf's key
     */
    static Outcome calve(MeteredDynamo dynamo, StreamName stream, TipState state, EventCodec.Entries events,
                         List<AttributeValue> unfolds) {
        Map<String, AttributeValue> old = state.item();
        long first = state.version() - state.eventCount();
        var calf = calf(stream, first, state.version(), old.getOrDefault(TYPES, AttributeValue.fromL(List.of())),
                old.getOrDefault(EVENTS, AttributeValue.fromL(List.of())));
        long calfBytes = state.calfBytes() + ItemSize.item(calf);
        String etag = newEtag();
        int appended = events.entries().size();
        long n = state.version() + appended;
        var newTip = tip(stream, n, appended, calfBytes, etag, events.types(), events.entries(), unfolds);
        Map<String, AttributeValue> pinned = new HashMap<>();
        String condition = pin(state, pinned);
        try {
            return attempt(() -> dynamo.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(
                    TransactWriteItem.builder().put(Put.builder().tableName(dynamo.table()).item(calf)
                            .conditionExpression("attribute_not_exists(#p)").expressionAttributeNames(Map.of("#p", STREAM)).build()).build(),
                    TransactWriteItem.builder().put(Put.builder().tableName(dynamo.table()).item(newTip)
                            .conditionExpression(condition).expressionAttributeNames(Map.of("#n", NEXT, "#etag", ETAG))
                            .expressionAttributeValues(pinned)
                            .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build()).build())),
                    new TipState(n, etag, appended, events.bytes(), calfBytes, null));
        } catch (TransactionCanceledException e) {
            List<CancellationReason> reasons = e.hasCancellationReasons() ? e.cancellationReasons() : List.of();
            if (reasons.size() != 2) {
                throw e;
            }
            if ("ConditionalCheckFailed".equals(reasons.get(1).code())) {
                return refused(reasons.get(1).hasItem() ? reasons.get(1).item() : null);
            }
            if ("ConditionalCheckFailed".equals(reasons.get(0).code()) && "None".equals(reasons.get(1).code())) {
                throw new StoreFormatException(stream, first, "an item already has the key of the calf that would hold "
                        + "events " + first + ".." + (state.version() - 1) + ", which the Tip still holds; "
                        + "refusing to overwrite it", e);
            }
            if (reasons.stream().anyMatch(r -> "TransactionConflict".equals(r.code()))) {
                return UNKNOWN;
            }
            throw e;
        }
    }

    /** {@code write}'s outcome: {@code written} when it landed, else the refusal. */
    private static Outcome attempt(Runnable write, TipState written) {
        try {
            write.run();
            return new Outcome.Written(written);
        } catch (ConditionalCheckFailedException e) {
            return refused(e.hasItem() ? e.item() : null);
        } catch (TransactionConflictException e) {
            return UNKNOWN;
        }
    }

    private static Outcome refused(Map<String, AttributeValue> tip) {
        return new Outcome.Refused(true, tip == null || tip.isEmpty() ? null : tip);
    }

    /** A calf-first Tip at version {@code n}, holding no events: created, or moved only forwards and never over events. */
    static UpdateItemRequest.Builder advanceTip(StreamName stream, long n, long calfBytes, String etag) {
        return UpdateItemRequest.builder().key(key(stream, TIP_INDEX))
                .updateExpression("SET #n = :n, #a = :zero, #b = :b, #etag = :etag, #c = if_not_exists(#c, :empty),"
                        + " #e = if_not_exists(#e, :empty), #u = if_not_exists(#u, :empty)")
                .conditionExpression("attribute_not_exists(#p) OR (#n < :n AND (attribute_not_exists(#e) OR size(#e) = :zero))")
                .expressionAttributeNames(Map.of("#p", STREAM, "#n", NEXT, "#a", APPENDED, "#b", CALF_BYTES, "#etag", ETAG, "#c", TYPES, "#e", EVENTS, "#u", UNFOLDS))
                .expressionAttributeValues(Map.of(":n", num(n), ":zero", num(0), ":b", num(calfBytes),
                        ":etag", AttributeValue.fromS(etag), ":empty", AttributeValue.fromL(List.of())))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
    }

    /** The Tip is exactly the one {@code state} describes: same version, same etag. */
    private static String pin(TipState state, Map<String, AttributeValue> values) {
        values.put(":pinN", num(state.version()));
        if (state.etag() == null) {
            return "#n = :pinN AND attribute_not_exists(#etag)";
        }
        values.put(":pinEtag", AttributeValue.fromS(state.etag()));
        return "#n = :pinN AND #etag = :pinEtag";
    }

    static AttributeValue num(long v) {
        return AttributeValue.fromN(Long.toString(v));
    }
}
