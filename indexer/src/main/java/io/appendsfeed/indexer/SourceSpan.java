package io.appendsfeed.indexer;

import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.feed.Span;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A span to index, with what the indexer needs to index it exactly once: parsed from a {@link ChangeRecord},
 * or built by a source that reads the store table itself (a backfill).
 *
 * @param span the newly appended events
 * @param tipSource builds every event type the stream's Tip held after the append, or null for none: when the
 *                  feed is behind the start of {@code span} and the Tip still holds the missing events, they are
 *                  indexed from there instead of reporting a gap. Built only when read (a Tip holds many more
 *                  types than a write appends)
 * @param writtenAt DynamoDB's {@code ApproximateCreationDateTime} of the record (never later than the write), or
 *                  null: it bounds the earlier epochs consulted to recognise a redelivery; never a writer's clock
 * @param position where the span came from (a Streams sequence number), reported back in outcomes
 */
public record SourceSpan(Span span, Supplier<Span> tipSource, Instant writtenAt, String position) implements AppendsEpoch.Input {

    public SourceSpan {
        Objects.requireNonNull(span, "span");
        Objects.requireNonNull(position, "position");
    }

    public static SourceSpan of(Span span, String position) {
        return new SourceSpan(span, null, null, position);
    }

    /**
     * The tip, built from {@code tipSource} on every call (read only when healing a gap), or null.
     *
     * @throws IllegalArgumentException when it cannot be built (an event type that is not one: the message
     *         names the record), or does not fit the span
     */
    @Override
    public Span tip() {
        Span tip = tipSource == null ? null : tipSource.get();
        if (tip != null && (!tip.stream().equals(span.stream()) || tip.nextIndex() != span.nextIndex()
                || tip.index() > span.index())) {
            throw new IllegalArgumentException("tip " + tip + " must be of the same stream, end where span " + span
                    + " ends and start no later than it");
        }
        return tip;
    }

    /** {@code part} (a part of this span that ends where it ends) with the same tip, time and position. */
    public SourceSpan with(Span part) {
        return new SourceSpan(part, tipSource, writtenAt, position);
    }
}
