package io.appendsfeed.indexer;

import java.time.Instant;

/**
 * When a stream's events were written, as far as the source of a span knows (a Streams record's
 * Tip image holds the times of the events still in the Tip). The indexer consults them only to
 * place a stream that it does not find among the recent epochs: an event is indexed within the
 * redelivery window after it was written, so the epochs open around that time are the only ones
 * that can hold it.
 */
@FunctionalInterface
public interface EventTimes {

    /** Knows no times. */
    EventTimes NONE = index -> null;

    /** When the stream's event at {@code index} was written, or null when unknown. */
    Instant writtenAt(long index);
}
