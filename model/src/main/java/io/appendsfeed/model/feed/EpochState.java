package io.appendsfeed.model.feed;

import io.appendsfeed.model.StreamName;
import io.vavr.collection.HashMap;
import io.vavr.collection.Map;
import java.time.Instant;
import java.util.Objects;

/**
 * The fold of one epoch stream: for every stream in it, the index its next event will get.
 * Persistent (vavr), so that deciding on a copy costs nothing and a failed write leaves the cached
 * state untouched.
 *
 * @param epoch the epoch
 * @param version epoch events so far (the epoch stream's version, the next event's offset)
 * @param next stream → next index, for the streams this epoch holds
 * @param bytes bytes of the {@code Ingested} bodies so far
 * @param closedAt when {@code Closed} was written, null while the epoch is open
 */
public record EpochState(EpochId epoch, long version, Map<StreamName, Long> next, long bytes, Instant closedAt) {

    public EpochState {
        Objects.requireNonNull(epoch, "epoch");
        Objects.requireNonNull(next, "next");
        if (version < 0 || bytes < 0) {
            throw new IllegalArgumentException("version and bytes must be >= 0, were " + version + ", " + bytes);
        }
    }

    public static EpochState empty(EpochId epoch) {
        return new EpochState(epoch, 0, HashMap.empty(), 0, null);
    }

    public boolean isClosed() {
        return closedAt != null;
    }

    /** The next index of {@code stream} per this epoch, or -1 when the epoch does not hold it. */
    public long nextIndex(StreamName stream) {
        return next.getOrElse(stream, -1L); // no Option per look-up: this is on every span's path
    }

    /**
     * @param bodyBytes the size of the event's stored body
     * @param at the event's timestamp (used for {@code Closed})
     */
    public EpochState evolve(EpochEvent event, long bodyBytes, Instant at) {
        if (event instanceof EpochEvent.Ingested ingested) {
            Map<StreamName, Long> m = next;
            for (Span s : ingested.add()) {
                m = advance(m, s);
            }
            for (Span s : ingested.app()) {
                m = advance(m, s);
            }
            return new EpochState(epoch, version + 1, m, bytes + bodyBytes, closedAt);
        }
        return new EpochState(epoch, version + 1, next, bytes + bodyBytes, closedAt == null ? at : closedAt);
    }

    /** Indexes only move forwards: a span behind what is known (written by another implementation) changes nothing. */
    private static Map<StreamName, Long> advance(Map<StreamName, Long> m, Span s) {
        long known = m.getOrElse(s.stream(), -1L);
        return s.nextIndex() > known ? m.put(s.stream(), s.nextIndex()) : m;
    }
}
