package io.appendsfeed.model.store;

import java.util.List;

/**
 * Events a forward read returned, in order.
 *
 * @param atEnd the read took the stream's Tip and returned every event it held: reading on would, at
 *              that moment, have found nothing. False when the read stopped before the Tip, or the
 *              stream has no Tip; a caller that needs to know then reads once more
 */
public record StreamSlice(List<StoredEvent> events, boolean atEnd) {

    public StreamSlice {
        events = List.copyOf(events);
    }
}
