package io.appendsfeed.samples.eventsourcing;

import java.util.List;

/** The result of a decision against a stream; {@link Stale} only from {@link Transactor#transactAt}. */
public sealed interface Outcome<S, E> {

    /** The events were appended (or there were none to append); {@code version} is the stream's version after them. */
    record Committed<S, E>(long version, List<E> events, S state) implements Outcome<S, E> {}

    /** The decision refused the command; nothing was written. */
    record Rejected<S, E>(String reason, long version, S state) implements Outcome<S, E> {}

    /** The stream is no longer at the version the caller expected; nothing was written. */
    record Stale<S, E>(long expectedVersion, long actualVersion) implements Outcome<S, E> {}
}
