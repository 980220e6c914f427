package io.appendsfeed.model.store.internal;

import static io.appendsfeed.model.store.internal.Fields.A;
import static io.appendsfeed.model.store.internal.Fields.B;
import static io.appendsfeed.model.store.internal.Fields.C;
import static io.appendsfeed.model.store.internal.Fields.E;
import static io.appendsfeed.model.store.internal.Fields.ETAG;
import static io.appendsfeed.model.store.internal.Fields.I;
import static io.appendsfeed.model.store.internal.Fields.N;
import static io.appendsfeed.model.store.internal.Fields.P;
import static io.appendsfeed.model.store.internal.Fields.U;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.Capacity;
import io.appendsfeed.model.store.StoreFormatException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The Tip's reads and conditional writes: a new stream, a Tip update, a calving, a calf-first
 * append's advance. A write whose condition failed is an {@link Outcome.Refused} carrying the current
 * Tip, read from the failure itself ({@code ReturnValuesOnConditionCheckFailure=ALL_OLD}).
 */
public final class TipWrites {

    /** What one conditional write of a Tip came to. */
    sealed interface Outcome {
        /** The write landed; {@code state} is the Tip it left. */
        record Written(TipState state, Capacity capacity) implements Outcome {}

        /**
         * The Tip was not the one the write was decided for. {@code tipKnown}: the failed condition
         * returned the current Tip ({@code tip}, null when there is none); false when DynamoDB refused
         * because of a concurrent transaction and did not say what is there.
         */
        record Refused(boolean tipKnown, Map<String, AttributeValue> tip) implements Outcome {}
    }

    /** Reason codes of a cancelled transaction (DynamoDB API reference). */
    private static final String CONDITION_FAILED = "ConditionalCheckFailed";
    private static final String NONE = "None";

    /** Length of our etags: 32 hex digits, like Equinox's GUIDs in "N" format. */
    static final int ETAG_LENGTH = 32;

    private TipWrites() {}

    static String newEtag() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    static Map<String, AttributeValue> key(StreamName stream, long i) {
        return Map.of(P, AttributeValue.fromS(stream.value()), I, num(i));
    }

    /** A whole Tip. {@code types} and {@code events} are this Tip's events only. */
    static Map<String, AttributeValue> tip(StreamName stream, long n, long appended, long calfBytes, String etag,
                                                  List<AttributeValue> types, List<AttributeValue> events,
                                                  List<AttributeValue> unfolds) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put(P, AttributeValue.fromS(stream.value()));
        item.put(I, num(Fields.TIP_INDEX));
        item.put(N, num(n));
        item.put(A, num(appended));
        item.put(B, num(calfBytes));
        item.put(ETAG, AttributeValue.fromS(etag));
        item.put(C, AttributeValue.fromL(types));
        item.put(E, AttributeValue.fromL(events));
        item.put(U, AttributeValue.fromL(unfolds));
        return item;
    }

    /** A calf: the old Tip's events, {@code i} = index of the first. No {@code a}, {@code b}, {@code etag}. */
    static Map<String, AttributeValue> calf(StreamName stream, long first, long n, AttributeValue types,
                                                   AttributeValue events) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put(P, AttributeValue.fromS(stream.value()));
        item.put(I, num(first));
        item.put(N, num(n));
        item.put(C, types);
        item.put(E, events);
        item.put(U, AttributeValue.fromL(List.of()));
        return item;
    }

    /**
     * Bytes of a Tip without its events' elements, with the largest numbers and an etag: what any
     * Tip holding {@code unfolds} costs before its events.
     */
    static long fixedTipSize(StreamName stream, List<AttributeValue> unfolds) {
        return ItemSize.item(tip(stream, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, "0".repeat(ETAG_LENGTH),
                List.of(), List.of(), unfolds));
    }

    /** The Tip item, or null when there is none. */
    public static MeteredDynamo.Metered<Map<String, AttributeValue>> read(MeteredDynamo dynamo, StreamName stream, boolean consistent) {
        var got = dynamo.getItem(GetItemRequest.builder().key(key(stream, Fields.TIP_INDEX)).consistentRead(consistent));
        var item = got.response().hasItem() && !got.response().item().isEmpty() ? got.response().item() : null;
        return new MeteredDynamo.Metered<>(item, got.capacity());
    }

    /** The new stream's Tip, only if it has none yet. */
    static Outcome putNew(MeteredDynamo dynamo, StreamName stream, EventCodec.Entries events, List<AttributeValue> unfolds) {
        String etag = newEtag();
        long n = events.entries().size();
        try {
            Capacity c = dynamo.putItem(PutItemRequest.builder().item(tip(stream, n, n, 0, etag, events.types(), events.entries(), unfolds))
                    .conditionExpression("attribute_not_exists(#p)")
                    .expressionAttributeNames(Map.of("#p", P))
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)).capacity();
            return new Outcome.Written(new TipState(n, etag, (int) n, events.bytes(), 0, null), c);
        } catch (ConditionalCheckFailedException e) {
            return refused(e);
        } catch (TransactionConflictException e) {
            return new Outcome.Refused(false, null);
        }
    }

    /** Appends to the Tip's lists and replaces the rest, if the Tip is still the one in {@code state}. */
    static Outcome update(MeteredDynamo dynamo, StreamName stream, TipState state, EventCodec.Entries events,
                          List<AttributeValue> unfolds) {
        String etag = newEtag();
        int appended = events.entries().size();
        long n = state.version() + appended;
        Map<String, String> names = new LinkedHashMap<>(Map.of("#n", N, "#a", A, "#b", B, "#etag", ETAG, "#u", U));
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        String condition = pin(state, values);
        values.put(":n", num(n));
        values.put(":a", num(appended));
        values.put(":b", num(state.calfBytes()));
        values.put(":etag", AttributeValue.fromS(etag));
        values.put(":u", AttributeValue.fromL(unfolds));
        StringBuilder set = new StringBuilder("SET #n = :n, #a = :a, #b = :b, #etag = :etag, #u = :u");
        if (appended > 0) {
            names.put("#e", E);
            names.put("#c", C);
            values.put(":e", AttributeValue.fromL(events.entries()));
            values.put(":c", AttributeValue.fromL(events.types()));
            values.put(":empty", AttributeValue.fromL(List.of()));
            set.append(", #e = list_append(if_not_exists(#e, :empty), :e), #c = list_append(if_not_exists(#c, :empty), :c)");
        }
        try {
            Capacity c = dynamo.updateItem(UpdateItemRequest.builder().key(key(stream, Fields.TIP_INDEX))
                    .updateExpression(set.toString()).conditionExpression(condition)
                    .expressionAttributeNames(names).expressionAttributeValues(values)
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)).capacity();
            return new Outcome.Written(new TipState(n, etag, state.eventCount() + appended,
                    state.eventBytes() + events.bytes(), state.calfBytes(), null), c);
        } catch (ConditionalCheckFailedException e) {
            return refused(e);
        } catch (TransactionConflictException e) {
            return new Outcome.Refused(false, null);
        }
    }

    /**
     * One transaction: a calf holds the Tip's events as they are (attribute values copied, so others'
     * encodings and timestamps survive), the Tip is rewritten with only the new events. Two items of
     * at most 400 KB each: within the transaction limits of 100 items and 4 MB. {@code state} must
     * hold the Tip's item.
     *
     * @throws StoreFormatException when an item already has the calf's key
     */
    static Outcome calve(MeteredDynamo dynamo, StreamName stream, TipState state, EventCodec.Entries events,
                         List<AttributeValue> unfolds) {
        Map<String, AttributeValue> old = state.item();
        long first = state.version() - state.eventCount();
        var calf = calf(stream, first, state.version(), old.getOrDefault(C, AttributeValue.fromL(List.of())),
                old.getOrDefault(E, AttributeValue.fromL(List.of())));
        long calfBytes = state.calfBytes() + ItemSize.item(calf);
        String etag = newEtag();
        int appended = events.entries().size();
        long n = state.version() + appended;
        Map<String, AttributeValue> pinned = new LinkedHashMap<>();
        String condition = pin(state, pinned);
        List<TransactWriteItem> items = new ArrayList<>(2);
        items.add(TransactWriteItem.builder().put(Put.builder().tableName(dynamo.table()).item(calf)
                .conditionExpression("attribute_not_exists(#p)").expressionAttributeNames(Map.of("#p", P)).build()).build());
        items.add(TransactWriteItem.builder().put(Put.builder().tableName(dynamo.table())
                .item(tip(stream, n, appended, calfBytes, etag, events.types(), events.entries(), unfolds))
                .conditionExpression(condition).expressionAttributeNames(Map.of("#n", N, "#etag", ETAG))
                .expressionAttributeValues(pinned)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build()).build());
        try {
            Capacity c = dynamo.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(items)).capacity();
            return new Outcome.Written(new TipState(n, etag, appended, events.bytes(), calfBytes, null), c);
        } catch (TransactionCanceledException e) {
            List<CancellationReason> reasons = e.hasCancellationReasons() ? e.cancellationReasons() : List.of();
            if (reasons.size() != 2) {
                throw e;
            }
            CancellationReason calfReason = reasons.get(0);
            CancellationReason tipReason = reasons.get(1);
            if (CONDITION_FAILED.equals(tipReason.code())) {
                return new Outcome.Refused(true, tipReason.hasItem() && !tipReason.item().isEmpty() ? tipReason.item() : null);
            }
            if (CONDITION_FAILED.equals(calfReason.code()) && NONE.equals(tipReason.code())) {
                throw new StoreFormatException(stream, first, "an item already has the key of the calf that would hold "
                        + "events " + first + ".." + (state.version() - 1) + ", which the Tip still holds; "
                        + "refusing to overwrite it", e);
            }
            if (reasons.stream().anyMatch(r -> "TransactionConflict".equals(r.code()))) {
                return new Outcome.Refused(false, null);
            }
            throw e;
        } catch (TransactionConflictException e) {
            return new Outcome.Refused(false, null);
        }
    }

    private static Outcome refused(ConditionalCheckFailedException e) {
        return new Outcome.Refused(true, e.hasItem() && !e.item().isEmpty() ? e.item() : null);
    }

    /**
     * A calf-first append's Tip write: the Tip holds no events and records version {@code n}. Creates
     * the Tip when there is none; otherwise only moves it forwards, and never over a Tip holding events.
     */
    static UpdateItemRequest.Builder advanceTip(StreamName stream, long n, long calfBytes, String etag) {
        Map<String, String> names = new LinkedHashMap<>();
        names.put("#p", P);
        names.put("#n", N);
        names.put("#a", A);
        names.put("#b", B);
        names.put("#etag", ETAG);
        names.put("#c", C);
        names.put("#e", E);
        names.put("#u", U);
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        values.put(":n", num(n));
        values.put(":zero", num(0));
        values.put(":b", num(calfBytes));
        values.put(":etag", AttributeValue.fromS(etag));
        values.put(":empty", AttributeValue.fromL(List.of()));
        return UpdateItemRequest.builder().key(key(stream, Fields.TIP_INDEX))
                .updateExpression("SET #n = :n, #a = :zero, #b = :b, #etag = :etag, #c = if_not_exists(#c, :empty),"
                        + " #e = if_not_exists(#e, :empty), #u = if_not_exists(#u, :empty)")
                .conditionExpression("attribute_not_exists(#p) OR (#n < :n AND (attribute_not_exists(#e) OR size(#e) = :zero))")
                .expressionAttributeNames(names).expressionAttributeValues(values)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
    }

    /** The condition that the Tip is exactly the one {@code state} describes: same version, same etag. */
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
