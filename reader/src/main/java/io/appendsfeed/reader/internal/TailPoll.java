package io.appendsfeed.reader.internal;

import java.time.Duration;

/**
 * How long a partition waits at its tail before reading again: {@link #FIRST_WAIT} right after it
 * found new epoch events, doubling while it finds none, up to the configured poll interval. While
 * events keep coming the reader sees them within tens of milliseconds; once the feed goes quiet it
 * is back to one read per poll interval within about a second, so an idle reader costs what it did
 * with a fixed interval.
 */
final class TailPoll {

    /** The first wait at the tail after new events. */
    static final Duration FIRST_WAIT = Duration.ofMillis(25);

    private TailPoll() {}

    static Duration first(Duration pollInterval) {
        return pollInterval.compareTo(FIRST_WAIT) < 0 ? pollInterval : FIRST_WAIT;
    }

    static Duration next(Duration wait, Duration pollInterval) {
        Duration doubled = wait.multipliedBy(2);
        return doubled.compareTo(pollInterval) > 0 ? pollInterval : doubled;
    }
}
