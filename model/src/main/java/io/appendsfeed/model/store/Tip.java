package io.appendsfeed.model.store;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.internal.EventCodec;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The Tip item of a stream.
 *
 * @param version the stream's version: the index the next event will get ({@code n})
 * @param etag the token of the last write, for {@link Expected.Etag}
 * @param events the events still in the Tip (the newest ones)
 * @param unfolds the snapshots written with the last write
 * @param calfBytes bytes held in calves ({@code b})
 */
public record Tip(StreamName stream, long version, String etag, List<StoredEvent> events,
                  List<StoredUnfold> unfolds, long calfBytes) {

    /** @throws StoreFormatException or {@link BodyDecodingException} when the item cannot be read */
    static Tip of(StreamName stream, Map<String, AttributeValue> item) {
        List<StoredEvent> events = StoreItems.events(stream, item, true, 0, Long.MAX_VALUE);
        AttributeValue u = item.get(StoreItems.UNFOLDS);
        List<StoredUnfold> unfolds = u == null || !u.hasL() ? List.of()
                : u.l().stream().map(entry -> EventCodec.storedUnfold(stream, entry)).toList();
        return new Tip(stream, StoreItems.next(stream, item), StoreItems.etag(item), List.copyOf(events), unfolds,
                StoreItems.number(stream, item, StoreItems.CALF_BYTES));
    }
}
