package io.appendsfeed.model.feed;

import io.appendsfeed.model.feed.AppendsEpoch.EpochEvent;
import java.time.Instant;

/** An epoch event as read: where it is, where the walk goes on ({@code Closed}: the next epoch), and when it was indexed. */
public record EpochRecord(Checkpoint position, Checkpoint next, Instant indexedAt, EpochEvent event) {

    public static EpochRecord of(Checkpoint position, Instant indexedAt, EpochEvent event) {
        return new EpochRecord(position, event instanceof EpochEvent.Closed ? position.nextEpoch() : position.plus(1), indexedAt, event);
    }
}
