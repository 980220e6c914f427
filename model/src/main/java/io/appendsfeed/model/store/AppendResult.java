package io.appendsfeed.model.store;

import io.appendsfeed.model.store.CapacityMeter.Capacity;
import java.util.List;

/** The outcome of an append; a conflict carries the actual version, from the failed condition itself. */
public sealed interface AppendResult {

    /** The write happened. {@code version} is the stream's new version; {@code calved} when the Tip's events moved to a calf. */
    record Written(long version, String etag, boolean calved, Capacity capacity) implements AppendResult {}

    /**
     * Another writer got there first ({@code actualVersion} 0 when the stream does not exist).
     *
     * @param found the events from the expected version on of the item that refused a calf-first append; empty when not known
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
