package io.appendsfeed.indexer.internal;

import io.appendsfeed.indexer.FeedGapException;
import io.appendsfeed.indexer.SourceSpan;
import io.appendsfeed.model.feed.EpochEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@link EpochDecider} decided for one write to one epoch.
 *
 * @param ingested the {@code Ingested} to append, null when nothing new is to be written
 * @param close append {@code Closed} after it: the epoch reached a limit
 * @param consumed how many inputs, from the front, this decision settles (written, dropped or
 *                 trimmed); the rest go to the next write (the next epoch when closing)
 * @param remainder when the input after those was too big for one write and only its first part is
 *                  in this one: the rest of it, to go first in the next write; null otherwise
 * @param acceptedEvents stream events the {@code Ingested} holds
 * @param duplicateEvents stream events dropped as already in the feed
 * @param healedEvents events taken from the Tip to fill what would otherwise have been a gap
 * @param allowedGaps spans let through past a gap (only with allowGaps)
 * @param gap set when the decision stopped at a span that would leave a gap; {@code consumed} is its position
 * @param bodyBytes the size of the {@code Ingested} body
 */
public record Decision(EpochEvent.Ingested ingested, boolean close, int consumed, SourceSpan remainder, long acceptedEvents,
                       long duplicateEvents, long healedEvents, List<FeedGapException> allowedGaps,
                       FeedGapException gap, long bodyBytes) {

    public Decision {
        allowedGaps = List.copyOf(allowedGaps);
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
