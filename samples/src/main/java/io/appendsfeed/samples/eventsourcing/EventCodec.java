package io.appendsfeed.samples.eventsourcing;

import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.StoredEvent;

/** Turns a category's events into stored events and back. */
public interface EventCodec<E> {

    EventData encode(E event);

    /**
     * @throws UnknownEventException when the stored event's type is not one of this category's
     *         (data written by something else: never skipped silently)
     */
    E decode(StoredEvent event);
}
