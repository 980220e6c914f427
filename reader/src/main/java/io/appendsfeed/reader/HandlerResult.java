package io.appendsfeed.reader;

/** What a {@link StreamHandler} reports after a call. */
public sealed interface HandlerResult {

    /** Every event of the call was applied. */
    record Handled() implements HandlerResult {}

    /**
     * The handler has applied its stream up to (not including) {@code nextIndex}. Above the
     * call's last event: later events below it are skipped (the handler already has them, e.g.
     * it read the stream itself or applied them before a crash). Inside the call's events: the
     * events from {@code nextIndex} on are handed over again. At or below the call's first event:
     * no progress, counted as a failed attempt.
     */
    record Reached(long nextIndex) implements HandlerResult {
        public Reached {
            if (nextIndex < 0) {
                throw new IllegalArgumentException("nextIndex must be >= 0, was " + nextIndex);
            }
        }
    }

    static HandlerResult handled() {
        return new Handled();
    }

    static HandlerResult reached(long nextIndex) {
        return new Reached(nextIndex);
    }
}
