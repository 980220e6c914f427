package io.appendsfeed.model.store.internal;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.Capacity;
import io.appendsfeed.model.store.StoreFormatException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;

/**
 * The three conditional writes of an append. A failed condition is an outcome carrying the current
 * Tip, read from the failure itself ({@code ReturnValuesOnConditionCheckFailure=ALL_OLD}).
 */
final class TipCommands {

    /** Reason codes of a cancelled transaction (DynamoDB API reference). */
    private static final String CONDITION_FAILED = "ConditionalCheckFailed";
    private static final String NONE = "None";

    private TipCommands() {}

    static TipWriteOutcome putNew(MeteredDynamo dynamo, StreamName stream, List<AttributeValue> entries,
                             List<AttributeValue> types, long newBytes, List<AttributeValue> unfolds) {
        String etag = TipWrites.newEtag();
        long n = entries.size();
        var tip = TipWrites.tip(stream, n, n, 0, etag, types, entries, unfolds);
        try {
            Capacity c = dynamo.putItem(TipWrites.putNew(tip)).capacity();
            return new TipWriteOutcome.Written(new TipState(n, etag, entries.size(), newBytes, 0, null), c);
        } catch (ConditionalCheckFailedException e) {
            return refused(e);
        } catch (TransactionConflictException e) {
            return new TipWriteOutcome.Refused(false, null, Capacity.NONE);
        }
    }

    static TipWriteOutcome update(MeteredDynamo dynamo, StreamName stream, TipState state, List<AttributeValue> entries,
                             List<AttributeValue> types, long newBytes, List<AttributeValue> unfolds) {
        String etag = TipWrites.newEtag();
        long n = state.version() + entries.size();
        try {
            Capacity c = dynamo.updateItem(TipWrites.update(stream, state, n, entries.size(), etag, types, entries, unfolds)).capacity();
            return new TipWriteOutcome.Written(new TipState(n, etag, state.eventCount() + entries.size(),
                    state.eventBytes() + newBytes, state.calfBytes(), null), c);
        } catch (ConditionalCheckFailedException e) {
            return refused(e);
        } catch (TransactionConflictException e) {
            return new TipWriteOutcome.Refused(false, null, Capacity.NONE);
        }
    }

    /**
     * One transaction: the calf holds the Tip's events as they are (attribute values copied, so
     * others' encodings and timestamps survive), the Tip is rewritten with only the new events.
     * Two items of at most 400 KB each: within the transaction limits of 100 items and 4 MB.
     */
    static TipWriteOutcome calve(MeteredDynamo dynamo, StreamName stream, TipState state, List<AttributeValue> entries,
                            List<AttributeValue> types, long newBytes, List<AttributeValue> unfolds) {
        Map<String, AttributeValue> old = state.item();
        long first = state.version() - state.eventCount();
        var calf = TipWrites.calf(stream, first, state.version(), old.getOrDefault(Fields.C, AttributeValue.fromL(List.of())),
                old.getOrDefault(Fields.E, AttributeValue.fromL(List.of())));
        long calfBytes = state.calfBytes() + ItemSize.item(calf);
        String etag = TipWrites.newEtag();
        long n = state.version() + entries.size();
        var tip = TipWrites.tip(stream, n, entries.size(), calfBytes, etag, types, entries, unfolds);
        List<TransactWriteItem> items = new ArrayList<>(2);
        items.add(TransactWriteItem.builder().put(TipWrites.putCalf(dynamo.table(), calf).build()).build());
        items.add(TransactWriteItem.builder().put(TipWrites.replaceTip(dynamo.table(), tip, state).build()).build());
        try {
            Capacity c = dynamo.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(items)).capacity();
            return new TipWriteOutcome.Written(new TipState(n, etag, entries.size(), newBytes, calfBytes, null), c);
        } catch (TransactionCanceledException e) {
            List<CancellationReason> reasons = e.hasCancellationReasons() ? e.cancellationReasons() : List.of();
            if (reasons.size() != 2) {
                throw e;
            }
            CancellationReason calfReason = reasons.get(0);
            CancellationReason tipReason = reasons.get(1);
            if (CONDITION_FAILED.equals(tipReason.code())) {
                return new TipWriteOutcome.Refused(true, tipReason.hasItem() && !tipReason.item().isEmpty() ? tipReason.item() : null, Capacity.NONE);
            }
            if (CONDITION_FAILED.equals(calfReason.code()) && NONE.equals(tipReason.code())) {
                throw new StoreFormatException(stream, first, "an item already has the key of the calf that would hold "
                        + "events " + first + ".." + (state.version() - 1) + ", which the Tip still holds; "
                        + "refusing to overwrite it", e);
            }
            if (reasons.stream().anyMatch(r -> "TransactionConflict".equals(r.code()))) {
                return new TipWriteOutcome.Refused(false, null, Capacity.NONE);
            }
            throw e;
        } catch (TransactionConflictException e) {
            return new TipWriteOutcome.Refused(false, null, Capacity.NONE);
        }
    }

    private static TipWriteOutcome refused(ConditionalCheckFailedException e) {
        Map<String, AttributeValue> item = e.hasItem() && !e.item().isEmpty() ? e.item() : null;
        return new TipWriteOutcome.Refused(true, item, Capacity.NONE);
    }
}
