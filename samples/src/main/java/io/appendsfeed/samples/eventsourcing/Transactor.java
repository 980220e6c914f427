package io.appendsfeed.samples.eventsourcing;

import io.appendsfeed.model.Decider;
import io.appendsfeed.model.Decider.Loaded;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.StoreClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The samples' commands over the model's {@link Decider}: load, a pure decide giving events or a rejection, an append
 * with the new snapshot expecting the loaded version; on a conflict, a strongly consistent reload and another decision.
 * Thread-safe.
 */
public final class Transactor<S, E> {

    /** Attempts before {@link Decider.TooManyConflictsException}. */
    public static final int MAX_ATTEMPTS = 10;
    /** Racing writers of one stream wait a random time up to this after a lost race, so that they stop colliding in step. */
    private static final Duration CONFLICT_BACKOFF = Duration.ofMillis(10);

    private final Decider<S, E> decider;
    private final Decider<S, E> once;
    private final AtomicLong conflicts = new AtomicLong();

    public Transactor(StoreClient store, Decider.Category<S, E> category) {
        this.decider = new Decider<>(store, category, new Decider.Conflicts(MAX_ATTEMPTS - 1, CONFLICT_BACKOFF));
        this.once = new Decider<>(store, category, new Decider.Conflicts(0, Duration.ZERO));
    }

    /** Conflicts met (and retried) so far. */
    public long conflicts() {
        return conflicts.get();
    }

    /** The stream's current state; version 0 and the initial state when it does not exist. */
    public Loaded<S> load(StreamName stream, boolean consistent) {
        return decider.load(stream, consistent);
    }

    /**
     * Runs {@code decide} against the stream's current state and appends what it accepts, retrying on conflicts.
     *
     * @return {@link Outcome.Committed} or {@link Outcome.Rejected}, never {@link Outcome.Stale}
     * @throws Decider.TooManyConflictsException after {@link #MAX_ATTEMPTS} lost races; nothing was written
     */
    public Outcome<S, E> transact(StreamName stream, Function<S, CommandDecision<E>> decide) {
        return transact(decider, stream, null, decide);
    }

    /**
     * Runs {@code decide} only if the stream is at {@code expectedVersion} (an HTTP {@code If-Match}); no retry.
     *
     * @return {@link Outcome.Stale} when the stream has moved on; nothing was written then
     */
    public Outcome<S, E> transactAt(StreamName stream, long expectedVersion, Function<S, CommandDecision<E>> decide) {
        Loaded<S> loaded = load(stream, true);
        if (loaded.version() != expectedVersion) {
            return new Outcome.Stale<>(expectedVersion, loaded.version());
        }
        try {
            return transact(once, stream, loaded, decide);
        } catch (Decider.TooManyConflictsException e) {
            conflicts.incrementAndGet();
            return new Outcome.Stale<>(expectedVersion, load(stream, true).version());
        }
    }

    private Outcome<S, E> transact(Decider<S, E> d, StreamName stream, Loaded<S> known, Function<S, CommandDecision<E>> decide) {
        var t = d.transact(stream, known, s -> {
            CommandDecision<E> decision = decide.apply(s);
            return new Decider.Decision<>(decision, decision instanceof CommandDecision.Accept<E> a ? a.events() : List.<E>of());
        });
        conflicts.addAndGet(t.conflicts());
        if (t.result() instanceof CommandDecision.Reject<E> r) {
            return new Outcome.Rejected<>(r.reason(), t.loaded().version(), t.loaded().state());
        }
        return new Outcome.Committed<>(t.loaded().version(), ((CommandDecision.Accept<E>) t.result()).events(), t.loaded().state());
    }
}
