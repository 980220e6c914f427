package io.appendsfeed.indexer;

import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.feed.Span;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A span to index, parsed from a {@link ChangeRecord} or built by a backfill.
 *
 * @param span the newly appended events
 * @param tipSource builds every event type the stream's Tip held after the append, or null: when the feed is
 *                  behind the span's start and the Tip holds the missing events, they are indexed from there.
 *                  Built only when a gap asks for it (a Tip holds many more types than a write appends)
 * @param writtenAt DynamoDB's {@code ApproximateCreationDateTime} of the record, or null: it bounds the closed
 *                  epochs consulted for a redelivery; never a writer's clock
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

    /** The tip, built on every call, or null. @throws IllegalArgumentException when it cannot be built, or does not fit the span */
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
