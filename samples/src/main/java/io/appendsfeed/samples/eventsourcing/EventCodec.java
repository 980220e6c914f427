package io.appendsfeed.samples.eventsourcing;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.StoredEvent;

/** Turns a category's events into stored events and back. */
public interface EventCodec<E> {

    EventData encode(E event);

    /**
     * Decodes one event, from the store or from the feed.
     *
     * @param data the body; null when it was not loaded
     * @throws UnknownEventException when the type is not one of this category's, or the body is
     *         missing or not of the type's shape (data written by something else: never skipped silently)
     */
    E decode(StreamName stream, long index, String type, byte[] data);

    default E decode(StoredEvent event) {
        return decode(event.stream(), event.index(), event.type(), event.data());
    }
}
