package io.appendsfeed.model.feed;

import io.appendsfeed.model.StreamName;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What {@link EpochDecider} decided to write next to an epoch, and what that settles of its inputs.
 *
 * @param ingested the {@code Ingested} to append, null when nothing new is to be written
 * @param close append {@code Closed} after it: the epoch reached a limit
 * @param consumed how many inputs, from the front, this decision settles (written, dropped or
 *                 trimmed); the rest go to the next write (the next epoch when closing)
 * @param remainder when input {@code consumed} was too big for one write and only its first part is
 *                  in this one: the rest of its span, to go first in the next write; null otherwise
 * @param acceptedEvents stream events the {@code Ingested} holds
 * @param duplicateEvents stream events dropped as already in the feed
 * @param healedEvents events taken from the Tip to fill what would otherwise have been a gap
 * @param allowedGaps spans let through past a gap (only with allowGaps)
 * @param gap set when the decision stopped at a span that would leave a gap; {@code consumed} is its position
 * @param bodyBytes the size of the {@code Ingested} body, exactly as {@link FeedCodec} writes it
 */
public record EpochWrite(EpochEvent.Ingested ingested, boolean close, int consumed, Span remainder, long acceptedEvents,
                         long duplicateEvents, long healedEvents, List<Gap> allowedGaps, Gap gap, long bodyBytes) {

    public EpochWrite {
        allowedGaps = List.copyOf(allowedGaps);
    }

    /**
     * A span that starts after its stream's next index in the feed: indexing it would leave a hole.
     *
     * @param expectedIndex the stream's next index in the feed
     * @param actualIndex where the span starts
     */
    public record Gap(StreamName stream, long expectedIndex, long actualIndex) {
        public Gap {
            Objects.requireNonNull(stream, "stream");
        }
    }

    /** The events to append: the {@code Ingested}, then {@code Closed} when closing. */
    public List<EpochEvent> events() {
        List<EpochEvent> events = new ArrayList<>(2);
        if (ingested != null) {
            events.add(ingested);
        }
        if (close) {
            events.add(new EpochEvent.Closed());
        }
        return events;
    }

    public boolean writes() {
        return ingested != null || close;
    }
}
