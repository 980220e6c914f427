package io.appendsfeed.indexer;

import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.feed.Span;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A span to index, with what the indexer needs to index it exactly once. Parsed from a
 * {@link ChangeRecord} by the indexer, or built directly by sources that read the store table
 * themselves (a backfill from a table scan).
 *
 * @param span the newly appended events
 * @param tipSource builds every event type the stream's Tip held after the append (a span ending where
 *                  {@code span} ends), or null for none; when the feed is behind the start of {@code span}
 *                  and the Tip still holds the missing events, they are indexed from here instead of
 *                  reporting a gap. Built only when read (only to heal a gap): a Tip holds many more event
 *                  types than a write appends (56 against 1.5 on average in the benchmark's store)
 * @param writtenAt when the Streams record was made per DynamoDB ({@code ApproximateCreationDateTime}, which
 *                  is never later than the write), or null when unknown: it bounds how many earlier epochs are
 *                  consulted to recognise a redelivery (DESIGN.md, "Exactly once across epochs"); never a
 *                  writer's clock
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
