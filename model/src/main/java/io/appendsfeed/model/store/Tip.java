package io.appendsfeed.model.store;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.internal.EventCodec;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The Tip item of a stream.
 *
 * @param version {@code n}: the index the next event gets
 * @param events the events still in the Tip (the newest)
 * @param calfBytes {@code b}
 */
public record Tip(StreamName stream, long version, String etag, List<StoredEvent> events,
                  List<StoredUnfold> unfolds, long calfBytes) {

    static Tip of(StreamName stream, Map<String, AttributeValue> item) {
        List<StoredEvent> events = StoreItems.events(stream, item, true, 0, Long.MAX_VALUE);
        AttributeValue u = item.get(StoreItems.UNFOLDS);
        List<StoredUnfold> unfolds = u == null || !u.hasL() ? List.of()
                : u.l().stream().map(entry -> EventCodec.storedUnfold(stream, entry)).toList();
        return new Tip(stream, StoreItems.next(stream, item), StoreItems.etag(item), List.copyOf(events), unfolds,
                StoreItems.number(stream, item, StoreItems.CALF_BYTES));
    }
}
