package io.appendsfeed.model.store;

import io.appendsfeed.model.StreamName;
import java.util.List;
import java.util.Objects;

/** One raw item of a store table, as a scan, an export or a Streams record shows it; one not of the format is a {@link Malformed}. */
public sealed interface StoreItem {

    /**
     * @param types the Tip's {@code c}, taken as given, never copied
     * @param appended how many of {@code types}, the last ones, this write appended ({@code a}; 0 when absent or not read)
     */
    record Tip(StreamName stream, long next, List<String> types, long appended) implements StoreItem {
        public Tip {
            Objects.requireNonNull(stream, "stream");
            Objects.requireNonNull(types, "types");
            if (appended < 0 || appended > types.size() || next < types.size()) {
                throw new IllegalArgumentException("a Tip of " + stream + " at n = " + next + " with " + types.size()
                        + " event types cannot have appended " + appended);
            }
        }

        public long first() {
            return next - types.size();
        }
    }

    /** A Tip written without new events ({@code a} = 0 or absent), as a Streams image shows it. */
    record Unfolded(StreamName stream) implements StoreItem {
        public Unfolded {
            Objects.requireNonNull(stream, "stream");
        }
    }

    /** @param types null when not read (a Streams image's calf is read no further than its key) */
    record Calf(StreamName stream, long first, List<String> types) implements StoreItem {
        public Calf {
            Objects.requireNonNull(stream, "stream");
        }

        public long next() {
            return first + types.size();
        }
    }

    /** An item of one of appendsfeed's own {@code $} streams: never indexed. */
    record Reserved(String stream) implements StoreItem {}

    /**
     * @param key the item's key for messages, e.g. {@code p=Account-42, i=2147483647}
     * @param stream null when the key names none
     */
    record Malformed(String key, StreamName stream, String problem) implements StoreItem {
        public Malformed {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(problem, "problem");
        }
    }
}
