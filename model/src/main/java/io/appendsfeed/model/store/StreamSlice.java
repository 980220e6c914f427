package io.appendsfeed.model.store;

import java.util.List;

/**
 * Events a forward read returned, and whether they reach the stream's end as it stood when its last
 * item was read.
 *
 * @param events the events, in order
 * @param atEnd the read took the stream's last item (its Tip) and returned every event it held:
 *              reading on from after the last event would, at that moment, have found nothing. False
 *              when the read stopped before the last item (its limit, a backwards read) or the stream
 *              has no Tip; a caller that needs to know then reads once more
 */
public record StreamSlice(List<StoredEvent> events, boolean atEnd) {

    public StreamSlice {
        events = List.copyOf(events);
    }
}
