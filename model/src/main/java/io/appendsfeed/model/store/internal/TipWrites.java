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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/** Builds the items and requests of the three kinds of append: new stream, Tip update, calving. */
public final class TipWrites {

    /** Length of our etags: 32 hex digits, like Equinox's GUIDs in "N" format. */
    static final int ETAG_LENGTH = 32;

    private TipWrites() {}

    public static String newEtag() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    public static Map<String, AttributeValue> key(StreamName stream, long i) {
        return Map.of(P, AttributeValue.fromS(stream.value()), I, num(i));
    }

    /** A whole Tip. {@code types} and {@code events} are this Tip's events only. */
    public static Map<String, AttributeValue> tip(StreamName stream, long n, long appended, long calfBytes, String etag,
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
    public static Map<String, AttributeValue> calf(StreamName stream, long first, long n, AttributeValue types,
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
    public static long fixedTipSize(StreamName stream, List<AttributeValue> unfolds) {
        return ItemSize.item(tip(stream, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, "0".repeat(ETAG_LENGTH),
                List.of(), List.of(), unfolds));
    }

    /** The new stream's Tip, only if it has none yet. */
    public static PutItemRequest.Builder putNew(Map<String, AttributeValue> tip) {
        return PutItemRequest.builder().item(tip)
                .conditionExpression("attribute_not_exists(#p)")
                .expressionAttributeNames(Map.of("#p", P))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
    }

    /** Replaces the Tip if it is still the one in {@code state}: a calving's Tip write. */
    public static Put.Builder replaceTip(String table, Map<String, AttributeValue> tip, TipState state) {
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        String condition = pin(state, values);
        return Put.builder().tableName(table).item(tip).conditionExpression(condition)
                .expressionAttributeNames(Map.of("#n", N, "#etag", ETAG))
                .expressionAttributeValues(values)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
    }

    /** The calf, only if no item has its key (a calf is never overwritten). */
    public static Put.Builder putCalf(String table, Map<String, AttributeValue> calf) {
        return Put.builder().tableName(table).item(calf)
                .conditionExpression("attribute_not_exists(#p)")
                .expressionAttributeNames(Map.of("#p", P));
    }

    /** Appends to the Tip's lists and replaces the rest, if the Tip is still the one in {@code state}. */
    public static UpdateItemRequest.Builder update(StreamName stream, TipState state, long n, long appended, String etag,
                                                   List<AttributeValue> types, List<AttributeValue> events,
                                                   List<AttributeValue> unfolds) {
        Map<String, String> names = new LinkedHashMap<>(Map.of("#n", N, "#a", A, "#b", B, "#etag", ETAG, "#u", U));
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        String condition = pin(state, values);
        values.put(":n", num(n));
        values.put(":a", num(appended));
        values.put(":b", num(state.calfBytes()));
        values.put(":etag", AttributeValue.fromS(etag));
        values.put(":u", AttributeValue.fromL(unfolds));
        StringBuilder set = new StringBuilder("SET #n = :n, #a = :a, #b = :b, #etag = :etag, #u = :u");
        if (!events.isEmpty()) {
            names.put("#e", E);
            names.put("#c", C);
            values.put(":e", AttributeValue.fromL(events));
            values.put(":c", AttributeValue.fromL(types));
            values.put(":empty", AttributeValue.fromL(List.of()));
            set.append(", #e = list_append(if_not_exists(#e, :empty), :e), #c = list_append(if_not_exists(#c, :empty), :c)");
        }
        return UpdateItemRequest.builder().key(key(stream, Fields.TIP_INDEX))
                .updateExpression(set.toString()).conditionExpression(condition)
                .expressionAttributeNames(names).expressionAttributeValues(values)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
    }

    /**
     * A calf-first append's Tip write: the Tip holds no events and records version {@code n}. Creates
     * the Tip when there is none; otherwise only moves it forwards, and never over a Tip holding events.
     */
    public static UpdateItemRequest.Builder advanceTip(StreamName stream, long n, long calfBytes, String etag) {
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
