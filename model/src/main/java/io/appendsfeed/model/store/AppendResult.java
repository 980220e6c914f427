package io.appendsfeed.model.store;

/**
 * The outcome of an append. A conflict is an expected outcome, not an exception: it carries the
 * stream's actual version, obtained from the failed condition itself (no extra read).
 */
public sealed interface AppendResult {

    /** The write happened. {@code version} is the stream's new version; {@code calved} when the Tip's events moved to a calf. */
    record Written(long version, String etag, boolean calved, Capacity capacity) implements AppendResult {}

    /**
     * Another writer got there first. {@code actualVersion} is 0 and {@code actualEtag} null when the
     * stream does not exist.
     *
     * @param found the events of the item that refused the write, from the expected version on, when
     *              the refusal returned it (a calf-first append: the item holding the key it wanted);
     *              empty when not known. {@code actualVersion} is then at least the end of them.
     */
    record Conflict(long actualVersion, String actualEtag, Capacity capacity, java.util.List<StoredEvent> found)
            implements AppendResult {

        public Conflict {
            found = java.util.List.copyOf(found);
        }

        public Conflict(long actualVersion, String actualEtag, Capacity capacity) {
            this(actualVersion, actualEtag, capacity, java.util.List.of());
        }
    }
}
