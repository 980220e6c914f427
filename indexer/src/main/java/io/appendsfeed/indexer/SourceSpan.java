package io.appendsfeed.indexer;

import io.appendsfeed.model.feed.EpochDecider;
import io.appendsfeed.model.feed.Span;
import java.time.Instant;
import java.util.Objects;

/**
 * A span to index, with what the indexer needs to index it exactly once. Parsed from a
 * {@link ChangeRecord} by the indexer, or built directly by sources that read the store table
 * themselves (a backfill from a table scan).
 *
 * @param span the newly appended events
 * @param tip every event type the stream's Tip held after the append (a span ending where
 *            {@code span} ends), or null; when the feed is behind the start of {@code span} and the
 *            Tip still holds the missing events, they are indexed from here instead of reporting a gap
 * @param writtenAt no later than when the events were written (the store write, per DynamoDB or the
 *                  events' own timestamps), or null when unknown. Bounds how many earlier epochs are
 *                  consulted to recognise a redelivery: see the README's "Across epochs"
 * @param position where the span came from (a Streams sequence number), reported back in outcomes
 * @param times when the stream's earlier events were written, as far as the source knows
 *              ({@link EventTimes#NONE} when it knows none): how the indexer places a stream it does
 *              not find among the recent epochs
 */
public record SourceSpan(Span span, Span tip, Instant writtenAt, String position, EventTimes times) implements EpochDecider.Input {

    public SourceSpan {
        Objects.requireNonNull(span, "span");
        Objects.requireNonNull(position, "position");
        times = times == null ? EventTimes.NONE : times;
        if (tip != null && (!tip.stream().equals(span.stream()) || tip.nextIndex() != span.nextIndex()
                || tip.index() > span.index())) {
            throw new IllegalArgumentException("tip " + tip + " must be of the same stream, end where span " + span
                    + " ends and start no later than it");
        }
    }

    public SourceSpan(Span span, Span tip, Instant writtenAt, String position) {
        this(span, tip, writtenAt, position, EventTimes.NONE);
    }

    public static SourceSpan of(Span span, String position) {
        return new SourceSpan(span, null, null, position);
    }

    /** The part of this span from {@code index} on, with the same tip, times and position. */
    public SourceSpan from(long index) {
        return new SourceSpan(span.from(index), tip, writtenAt, position, times);
    }
}
