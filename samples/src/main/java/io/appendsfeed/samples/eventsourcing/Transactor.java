package io.appendsfeed.samples.eventsourcing;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.store.StoredUnfold;
import io.appendsfeed.model.store.Tip;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Load, decide, append: the one loop every sample's writes go through.
 *
 * <ol>
 *   <li>load: read the Tip; take the state from its snapshot unfold and fold the events after it
 *       (from the Tip when they are there, else from the calves);</li>
 *   <li>decide: a pure function of the state gives events or a rejection;</li>
 *   <li>append the events with the snapshot of the new state, expecting the loaded version;</li>
 *   <li>on a conflict, wait a little (random, growing), load again (strongly consistent) and
 *       decide again.</li>
 * </ol>
 * Thread-safe.
 */
public final class Transactor<S, E> {

    /** Attempts before {@link TooManyConflictsException}. */
    public static final int MAX_ATTEMPTS = 10;

    private static final Logger log = LoggerFactory.getLogger(Transactor.class);

    private final StoreClient store;
    private final Category<S, E> category;
    private final AtomicLong conflicts = new AtomicLong();
    private final StateCache<S> cache;

    /** Without a cache: every command reads the stream's Tip first. */
    public Transactor(StoreClient store, Category<S, E> category) {
        this(store, category, 0);
    }

    /**
     * @param cacheStreams remember the state of up to this many streams, so that a command on a
     *                     stream this process wrote last needs no read (0: no cache). Safe with
     *                     other writers: a stale state only costs a refused append and a re-read
     */
    public Transactor(StoreClient store, Category<S, E> category, int cacheStreams) {
        this.store = store;
        this.category = category;
        this.cache = cacheStreams > 0 ? new StateCache<>(cacheStreams) : null;
    }

    public Category<S, E> category() {
        return category;
    }

    /** Conflicts met (and retried) so far. */
    public long conflicts() {
        return conflicts.get();
    }

    /** The stream's current state; version 0 and the initial state when it does not exist. */
    public Loaded<S> load(StreamName stream, boolean consistent) {
        Optional<Tip> found = store.readTip(stream, consistent);
        if (found.isEmpty()) {
            return new Loaded<>(category.initial(), 0);
        }
        Tip tip = found.get();
        Optional<StoredUnfold> snapshot = tip.unfolds().stream()
                .filter(u -> u.type().equals(category.snapshotType()) && u.index() <= tip.version())
                .findFirst();
        S state = snapshot.map(category::fromSnapshot).orElse(category.initial());
        long from = snapshot.map(StoredUnfold::index).orElse(0L);
        return new Loaded<>(category.fold(state, eventsBetween(tip, from, consistent)), tip.version());
    }

    private List<E> eventsBetween(Tip tip, long from, boolean consistent) {
        long firstInTip = tip.version() - tip.events().size();
        List<StoredEvent> events;
        if (from >= firstInTip) {
            events = tip.events().subList((int) (from - firstInTip), tip.events().size());
        } else {
            Read read = Read.forward(from).limit(tip.version() - from);
            events = store.readAll(tip.stream(), consistent ? read.strongly() : read);
        }
        return events.stream().map(category.codec()::decode).toList();
    }

    /**
     * Runs {@code decide} against the stream's current state and appends what it accepts,
     * retrying on conflicts.
     *
     * @return {@link Outcome.Committed} or {@link Outcome.Rejected}, never {@link Outcome.Stale}
     * @throws TooManyConflictsException after {@link #MAX_ATTEMPTS} lost races; nothing was written
     */
    public Outcome<S, E> transact(StreamName stream, Function<S, CommandDecision<E>> decide) {
        Loaded<S> cached = cache == null ? null : cache.get(stream);
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            Loaded<S> loaded = cached != null ? cached : load(stream, attempt > 1);
            Optional<Outcome<S, E>> done = decideAndAppend(stream, loaded, decide);
            if (done.isPresent() && cached != null && !(done.get() instanceof Outcome.Committed<S, E> c && !c.events().isEmpty())) {
                cached = null; // refused, or nothing to do, on a remembered state: decide again on the stored one
                attempt--;
                continue;
            }
            cached = null;
            if (done.isPresent()) {
                remember(stream, done.get());
                return done.get();
            }
            if (cache != null) {
                cache.remove(stream);
            }
            conflicts.incrementAndGet();
            log.debug("conflict on {} at version {}, attempt {}: deciding again", stream, loaded.version(), attempt);
            backOff(attempt);
        }
        throw new TooManyConflictsException(stream, MAX_ATTEMPTS);
    }

    /** Conflicts back off with the AWS SDK's full-jitter policy (appendsfeed's one retry policy), 1 ms doubling to 100 ms. */
    private static final software.amazon.awssdk.retries.api.BackoffStrategy CONFLICT_BACKOFF =
            software.amazon.awssdk.retries.api.BackoffStrategy.exponentialDelay(java.time.Duration.ofMillis(1), java.time.Duration.ofMillis(100));

    /**
     * Waits a random time, growing with each attempt, so that writers racing on one stream stop
     * colliding in step.
     */
    private static void backOff(int attempt) {
        LockSupport.parkNanos(CONFLICT_BACKOFF.computeDelay(Math.max(1, attempt)).toNanos());
    }

    /**
     * Runs {@code decide} only if the stream is at {@code expectedVersion} (what the caller saw,
     * e.g. an HTTP {@code If-Match}); no retry, since the caller decided on what it saw.
     *
     * @return {@link Outcome.Stale} when the stream has moved on; nothing was written then
     */
    public Outcome<S, E> transactAt(StreamName stream, long expectedVersion, Function<S, CommandDecision<E>> decide) {
        Loaded<S> loaded = load(stream, true);
        if (loaded.version() != expectedVersion) {
            return new Outcome.Stale<>(expectedVersion, loaded.version());
        }
        return decideAndAppend(stream, loaded, decide).orElseGet(() -> {
            conflicts.incrementAndGet();
            return new Outcome.Stale<>(expectedVersion, load(stream, true).version());
        });
    }

    private void remember(StreamName stream, Outcome<S, E> outcome) {
        if (cache == null) {
            return;
        }
        if (outcome instanceof Outcome.Committed<S, E> c) {
            cache.put(stream, new Loaded<>(c.state(), c.version()));
        } else if (outcome instanceof Outcome.Rejected<S, E> r) {
            cache.put(stream, new Loaded<>(r.state(), r.version()));
        }
    }

    /** Empty when another writer won the race. */
    private Optional<Outcome<S, E>> decideAndAppend(StreamName stream, Loaded<S> loaded, Function<S, CommandDecision<E>> decide) {
        CommandDecision<E> decision = decide.apply(loaded.state());
        if (decision instanceof CommandDecision.Reject<E> r) {
            return Optional.of(new Outcome.Rejected<>(r.reason(), loaded.version(), loaded.state()));
        }
        List<E> events = ((CommandDecision.Accept<E>) decision).events();
        if (events.isEmpty()) {
            return Optional.of(new Outcome.Committed<>(loaded.version(), events, loaded.state()));
        }
        S next = category.fold(loaded.state(), events);
        List<EventData> data = events.stream().map(category.codec()::encode).toList();
        AppendResult result = store.append(stream, Expected.version(loaded.version()), data, List.of(category.snapshot(next)));
        if (result instanceof AppendResult.Written w) {
            return Optional.of(new Outcome.Committed<>(w.version(), events, next));
        }
        return Optional.empty();
    }
}
