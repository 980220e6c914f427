package io.appendsfeed.indexer;

import io.appendsfeed.model.feed.AppendsEpoch;
import io.appendsfeed.model.feed.Span;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A span to index, with what the indexer needs to index it exactly once. Parsed from a
 * {@link ChangeRecord} by the indexer, or built directly by sources that read the store table
 * themselves (a backfill from a table scan). Immutable; equal when its parts are.
 *
 * <p>The parts: {@code span}, the newly appended events. {@code tip}, every event type the stream's
 * Tip held after the append (a span ending where {@code span} ends), or null; when the feed is behind
 * the start of {@code span} and the Tip still holds the missing events, they are indexed from here
 * instead of reporting a gap. {@code writtenAt}, when the Streams record was made per DynamoDB
 * ({@code ApproximateCreationDateTime}, which is never later than the write), or null when unknown: it
 * bounds how many earlier epochs are consulted to recognise a redelivery (DESIGN.md, "Exactly once
 * across epochs"); never a writer's clock. {@code position}, where the span came from (a Streams
 * sequence number), reported back in outcomes.
 *
 * <p>The tip may be given as a {@link #withLazyTip supplier}:
 * it is needed only to heal a gap, and a Tip holds many more event types
 * than a write appends (56 against 1.5 on average in the benchmark's store), so the indexer builds it
 * from a record only when it is read.
 */
public final class SourceSpan implements AppendsEpoch.Input {

    private final Span span;
    private final Supplier<Span> tipSource;
    private volatile Span tip;
    private final Instant writtenAt;
    private final String position;

    public SourceSpan(Span span, Span tip, Instant writtenAt, String position) {
        this(span, tip, null, writtenAt, position);
        check(span, tip);
    }

    /**
     * @param tip builds the tip when it is first read (at most once per read: it must give the same tip
     *            each time), or null for none; what it gives is checked then
     */
    public static SourceSpan withLazyTip(Span span, Supplier<Span> tip, Instant writtenAt, String position) {
        return new SourceSpan(span, null, tip, writtenAt, position);
    }

    private SourceSpan(Span span, Span tip, Supplier<Span> tipSource, Instant writtenAt, String position) {
        this.span = Objects.requireNonNull(span, "span");
        this.position = Objects.requireNonNull(position, "position");
        this.tip = tip;
        this.tipSource = tipSource;
        this.writtenAt = writtenAt;
    }

    public static SourceSpan of(Span span, String position) {
        return new SourceSpan(span, (Span) null, null, position);
    }

    private static void check(Span span, Span tip) {
        if (tip != null && (!tip.stream().equals(span.stream()) || tip.nextIndex() != span.nextIndex()
                || tip.index() > span.index())) {
            throw new IllegalArgumentException("tip " + tip + " must be of the same stream, end where span " + span
                    + " ends and start no later than it");
        }
    }

    @Override
    public Span span() {
        return span;
    }

    /**
     * @throws IllegalArgumentException when a tip given as a supplier cannot be built (an event type
     *         that is not one: the message names the record), or does not fit the span
     */
    @Override
    public Span tip() {
        Span t = tip;
        if (t == null && tipSource != null) {
            t = tipSource.get();
            check(span, t);
            tip = t;
        }
        return t;
    }

    public Instant writtenAt() {
        return writtenAt;
    }

    public String position() {
        return position;
    }

    /** The part of this span from {@code index} on, with the same tip, time and position. */
    public SourceSpan from(long index) {
        return with(span.from(index));
    }

    /** {@code part} (a part of this span that ends where it ends) with the same tip, time and position; the tip is not built. */
    public SourceSpan with(Span part) {
        return new SourceSpan(part, tip, tipSource, writtenAt, position);
    }

    /** Equal when the parts are; a tip given as a supplier is built to compare it. */
    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof SourceSpan s && span.equals(s.span) && Objects.equals(tip(), s.tip())
                && Objects.equals(writtenAt, s.writtenAt) && position.equals(s.position);
    }

    @Override
    public int hashCode() {
        return Objects.hash(span, writtenAt, position);
    }

    @Override
    public String toString() {
        return "SourceSpan[span=" + span + ", tip=" + (tip != null || tipSource == null ? tip : "(when read)") + ", writtenAt="
                + writtenAt + ", position=" + position + "]";
    }
}
