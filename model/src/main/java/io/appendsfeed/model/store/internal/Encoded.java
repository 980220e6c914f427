package io.appendsfeed.model.store.internal;

import io.appendsfeed.model.store.EventData;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Events encoded for an item: their {@code e} entries and {@code c} types, and the item-size bytes
 * both add to whichever item holds them.
 */
record Encoded(List<AttributeValue> entries, List<AttributeValue> types, long bytes) {

    static Encoded of(List<EventData> events, Instant now, boolean compress) {
        List<AttributeValue> entries = new ArrayList<>(events.size());
        List<AttributeValue> types = new ArrayList<>(events.size());
        long bytes = 0;
        for (EventData event : events) {
            AttributeValue entry = EventCodec.event(event, now, compress);
            AttributeValue type = AttributeValue.fromS(event.type());
            entries.add(entry);
            types.add(type);
            bytes += ItemSize.element(entry) + ItemSize.element(type);
        }
        return new Encoded(entries, types, bytes);
    }
}
