package io.appendsfeed.model.store;

import io.appendsfeed.model.StreamName;
import java.util.List;
import java.util.Objects;

/**
 * What one raw item of a store table is, as {@link StoreItems#parse} reads it from a scan or an export
 * and {@link StoreItems#parseImage} from a Streams record. An item that is not of the format is a value
 * saying what is wrong, never an exception.
 */
public sealed interface StoreItem {

    /**
     * A stream's Tip.
     *
     * @param next the stream's version {@code n}: the index the next event gets
     * @param types the Tip's event types ({@code c}), oldest first; taken as given, never copied
     * @param appended how many of {@code types}, the last ones, this write appended ({@code a}; 0 when
     *                 absent or not read, as a scan reads it)
     * @param times the timestamps {@code t} of the Tip's events (null where an event has none), a view read
     *              only when asked; empty when the item was read without its events
     */
    record Tip(StreamName stream, long next, List<String> types, long appended, List<String> times) implements StoreItem {
        public Tip {
            Objects.requireNonNull(stream, "stream");
            Objects.requireNonNull(types, "types");
            Objects.requireNonNull(times, "times");
            if (appended < 0 || appended > types.size() || next < types.size()) {
                throw new IllegalArgumentException("a Tip of " + stream + " at n = " + next + " with " + types.size()
                        + " event types cannot have appended " + appended);
            }
        }

        /** The index of the Tip's first event: {@code n - len(c)}. */
        public long first() {
            return next - types.size();
        }
    }

    /** A Tip written without new events ({@code a} = 0 or absent), as a Streams image shows it; {@code n}, {@code c} not read. */
    record Unfolded(StreamName stream) implements StoreItem {
        public Unfolded {
            Objects.requireNonNull(stream, "stream");
        }
    }

    /**
     * An older item of a stream (range key {@code i} = the index of its first event).
     *
     * @param types its event types, oldest first; null when not read ({@link StoreItems#parseImage} reads a calf's key only)
     */
    record Calf(StreamName stream, long first, List<String> types) implements StoreItem {
        public Calf {
            Objects.requireNonNull(stream, "stream");
        }

        /** The index the event after the calf's events gets. */
        public long next() {
            return first + types.size();
        }
    }

    /** An item of one of appendsfeed's own {@code $} streams: never indexed. */
    record Reserved(String stream) implements StoreItem {}

    /**
     * An item that is not of the store format.
     *
     * @param key the item's key for messages, e.g. {@code p=Account-42, i=2147483647}
     * @param stream its stream, or null when the key names none
     */
    record Malformed(String key, StreamName stream, String problem) implements StoreItem {
        public Malformed {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(problem, "problem");
        }
    }
}
