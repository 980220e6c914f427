package io.appendsfeed.model;

import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.store.StoredUnfold;
import io.appendsfeed.model.store.Tip;
import io.appendsfeed.model.store.Unfold;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Load, fold, decide, write on condition, and on a conflict resync and decide again (Equinox's {@code Decider}):
 * the one way appendsfeed writes a stream. {@code decide} is a pure function of the state; conflicts never reach
 * the caller. Thread-safe.
 */
public final class Decider<S, E> {

    /**
     * How a category's streams are folded and stored.
     *
     * @param snapshot the state kept as the Tip's unfold, rewritten with every append, so that loading is one read
     *                 of the Tip; null for a stream written calf-first, loaded by reading on from a known state, whose
     *                 writer moves the Tip ({@link StoreClient#ensureTip}) when it chooses
     */
    public record Category<S, E>(S initial, BiFunction<S, StoredEvent, S> evolve, Function<E, EventData> encode, Snapshot<S> snapshot) {
        public Category {
            Objects.requireNonNull(initial, "initial");
            Objects.requireNonNull(evolve, "evolve");
            Objects.requireNonNull(encode, "encode");
        }
    }

    /** Change {@code type} when the state's shape changes: old snapshots are then ignored. */
    public record Snapshot<S>(String type, Function<S, byte[]> encode, Function<byte[], S> decode) {}

    /** A stream's state at {@code version} (its next event's index; 0: no stream). */
    public record Loaded<S>(S state, long version) {}

    /** A result for the caller, and the events to append (none: nothing is written). */
    public record Decision<R, E>(R result, List<E> events) {
        public Decision {
            events = List.copyOf(events);
        }
    }

    /** The decision taken on the stream as it finally stood, and the stream after its events. */
    public record Transacted<R, S>(R result, Loaded<S> loaded, int conflicts) {}

    /** After each lost race wait a random time up to {@code backoff} (racing writers spread out; DynamoDB charges every refused write). */
    public record Conflicts(int maxRetries, Duration backoff) {
        public Conflicts {
            if (maxRetries < 0 || backoff.isNegative()) {
                throw new IllegalArgumentException("maxRetries and backoff must be >= 0, were " + maxRetries + ", " + backoff);
            }
        }
    }

    /** Other writers kept winning; nothing of the last decision was written. */
    public static class TooManyConflictsException extends RuntimeException {
        public TooManyConflictsException(StreamName stream, int attempts) {
            super(stream + ": " + attempts + " conditional writes in a row lost to other writers; nothing more was written."
                    + " Retry later, run fewer writers of this stream, or allow more retries");
        }
    }

    private final StoreClient store;
    private final Category<S, E> category;
    private final Conflicts conflicts;

    public Decider(StoreClient store, Category<S, E> category, Conflicts conflicts) {
        this.store = store;
        this.category = category;
        this.conflicts = conflicts;
    }

    /**
     * The stream's state: every event read forwards, or with a snapshot one read of the Tip as a rule (the snapshot
     * rule of {@link #fold(Category, Tip, LongFunction)}).
     *
     * @throws IllegalStateException when the events read have a hole (a lagging replica, or a broken store)
     */
    public Loaded<S> load(StreamName stream, boolean consistent) {
        if (category.snapshot() == null) {
            return catchUp(stream, new Loaded<>(category.initial(), 0), consistent);
        }
        return store.readTip(stream, consistent)
                .map(tip -> fold(category, tip, from -> store.readAll(stream, consistent ? Read.forward(from).strongly() : Read.forward(from))))
                .orElse(new Loaded<>(category.initial(), 0));
    }

    /**
     * The snapshot rule, pure: the latest snapshot at {@code u.i} not after the Tip's version {@code n} stands for the
     * events before {@code u.i}, which are never read; the events from {@code u.i} to {@code n} are folded onto it.
     * One claiming an index after {@code n} stands for nothing, nor does a Tip without one: all events are folded.
     *
     * @param eventsFrom the stream's events from an index on; asked only when the Tip does not hold them
     */
    public static <S, E> Loaded<S> fold(Category<S, E> category, Tip tip, LongFunction<List<StoredEvent>> eventsFrom) {
        StoredUnfold snapshot = null;
        for (StoredUnfold u : tip.unfolds()) {
            if (u.type().equals(category.snapshot().type()) && u.index() <= tip.version()
                    && (snapshot == null || u.index() >= snapshot.index())) {
                snapshot = u;
            }
        }
        Loaded<S> from = snapshot == null ? new Loaded<>(category.initial(), 0)
                : new Loaded<>(category.snapshot().decode().apply(snapshot.data()), snapshot.index());
        if (from.version() == tip.version()) {
            return from;
        }
        List<StoredEvent> inTip = tip.events();
        List<StoredEvent> events = !inTip.isEmpty() && inTip.get(0).index() <= from.version() ? inTip : eventsFrom.apply(from.version());
        return fold(category, tip.stream(), from, events.stream());
    }

    /** {@code known} followed by the events written after it: one query from its version. */
    public Loaded<S> catchUp(StreamName stream, Loaded<S> known, boolean consistent) {
        Read read = Read.forward(known.version());
        try (Stream<StoredEvent> events = store.read(stream, consistent ? read.strongly() : read)) {
            return fold(category, stream, known, events);
        }
    }

    private static <S, E> Loaded<S> fold(Category<S, E> category, StreamName stream, Loaded<S> known, Stream<StoredEvent> events) {
        S state = known.state();
        long version = known.version();
        for (StoredEvent e : (Iterable<StoredEvent>) events::iterator) {
            if (e.index() < version) {
                continue;
            }
            if (e.index() > version) {
                throw new IllegalStateException(stream + " read event " + e.index() + " where " + version + " was next");
            }
            state = category.evolve().apply(state, e);
            version++;
        }
        return new Loaded<>(state, version);
    }

    /**
     * Decides on the stream as {@code known} (loaded when null) and appends the events on condition that it is
     * still there; on a conflict, folds what the winner wrote (a strongly consistent read) and decides again.
     *
     * @throws TooManyConflictsException after {@link Conflicts#maxRetries()} lost races in a row
     * @throws RuntimeException from DynamoDB (after the SDK's retries): the last write may or may not have happened
     */
    public <R> Transacted<R, S> transact(StreamName stream, Loaded<S> known, Function<S, Decision<R, E>> decide) {
        Loaded<S> at = known != null ? known : load(stream, false);
        for (int lost = 0; ; lost++) {
            Decision<R, E> d = decide.apply(at.state());
            if (d.events().isEmpty()) {
                return new Transacted<>(d.result(), at, lost);
            }
            List<EventData> data = d.events().stream().map(category.encode()).toList();
            Loaded<S> after = fold(category, stream, at, written(stream, at.version(), data));
            AppendResult r = category.snapshot() == null ? store.appendAsCalf(stream, at.version(), data)
                    : store.append(stream, Expected.version(at.version()), data,
                            List.of(new Unfold(category.snapshot().type(), category.snapshot().encode().apply(after.state()), null)));
            if (r instanceof AppendResult.Written) {
                return new Transacted<>(d.result(), after, lost);
            }
            if (lost >= conflicts.maxRetries()) {
                throw new TooManyConflictsException(stream, lost + 1);
            }
            if (!conflicts.backoff().isZero()) {
                LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(conflicts.backoff().toNanos() + 1));
            }
            at = category.snapshot() == null ? catchUp(stream, at, true) : load(stream, true);
        }
    }

    private static Stream<StoredEvent> written(StreamName stream, long version, List<EventData> data) {
        return IntStream.range(0, data.size()).mapToObj(k -> {
            EventData d = data.get(k);
            return new StoredEvent(stream, version + k, d.timestamp(), d.type(), d.data(), d.meta(), d.correlationId(), d.causationId());
        });
    }
}
