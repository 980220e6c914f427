package io.appendsfeed.model.store;

import io.appendsfeed.model.store.CapacityMeter.Capacity;
import java.util.List;

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
     * @param found the events from the expected version on of the item that refused a calf-first append,
     *              as the refusal returned it; empty when not known
     */
    record Conflict(long actualVersion, String actualEtag, Capacity capacity, List<StoredEvent> found) implements AppendResult {

        public Conflict {
            found = List.copyOf(found);
        }

        public Conflict(long actualVersion, String actualEtag, Capacity capacity) {
            this(actualVersion, actualEtag, capacity, List.of());
        }
    }
}
