package io.appendsfeed.model.feed;

import io.appendsfeed.model.StreamName;
import java.util.List;
import java.util.Objects;

/**
 * Newly appended events of one stream: {@code {p: stream, i: index of first event, c: [types]}}.
 * The JSON field names are part of the index format shared with the .NET and TypeScript
 * implementations.
 */
public record Span(StreamName stream, long index, List<String> types) {

    public Span {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(types, "types");
        if (index < 0) {
            throw new IllegalArgumentException("span index must be >= 0, was " + index + " for " + stream);
        }
        if (types.isEmpty()) {
            throw new IllegalArgumentException("a span holds at least one event type, " + stream + "@" + index + " has none");
        }
        for (String t : types) {
            if (t == null || t.isEmpty()) {
                throw new IllegalArgumentException("span " + stream + "@" + index + " has an empty event type");
            }
        }
        types = List.copyOf(types);
    }

    public static Span of(String stream, long index, String... types) {
        return new Span(StreamName.parse(stream), index, List.of(types));
    }

    /** Number of events in the span. */
    public int count() {
        return types.size();
    }

    /** Index the stream's next event after this span will get. */
    public long nextIndex() {
        return index + types.size();
    }

    /** The part of this span at or after {@code from}, or null when nothing is left. */
    public Span from(long from) {
        if (from <= index) {
            return this;
        }
        if (from >= nextIndex()) {
            return null;
        }
        return new Span(stream, from, types.subList((int) (from - index), types.size()));
    }

    /** The first {@code n} events of this span, {@code 1 <= n <= count()}. */
    public Span prefix(int n) {
        if (n < 1 || n > types.size()) {
            throw new IllegalArgumentException("prefix of " + n + " events of " + this + ", which has " + types.size());
        }
        return n == types.size() ? this : new Span(stream, index, types.subList(0, n));
    }

    /** This span followed by {@code next}, which must be of the same stream and start where this one ends. */
    public Span concat(Span next) {
        if (!next.stream.equals(stream) || next.index != nextIndex()) {
            throw new IllegalArgumentException(next + " does not continue " + this);
        }
        List<String> all = new java.util.ArrayList<>(types.size() + next.types.size());
        all.addAll(types);
        all.addAll(next.types);
        return new Span(stream, index, all);
    }

    @Override
    public String toString() {
        return stream + "@" + index + types;
    }
}
