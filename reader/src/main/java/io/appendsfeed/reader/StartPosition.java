package io.appendsfeed.reader;

import io.appendsfeed.model.feed.Checkpoint;
import java.time.Instant;
import java.util.Objects;

/**
 * Where a reader starts in each partition. {@link #stored()} (the default) resumes from the
 * group's committed checkpoint and starts from the beginning where there is none. The others are
 * explicit: the reader starts there even when a checkpoint is stored, and records the jump as an
 * override in the checkpoint's history, since it may move the checkpoint backwards.
 */
public sealed interface StartPosition {

    /** The stored checkpoint; where none is stored, {@code whenNone}. */
    record Stored(StartPosition whenNone) implements StartPosition {
        public Stored {
            Objects.requireNonNull(whenNone, "whenNone");
            if (whenNone instanceof Stored) {
                throw new IllegalArgumentException("Stored(...) needs an explicit fallback, not another Stored");
            }
        }
    }

    /** Epoch 0, offset 0: every event in the feed. */
    record Beginning() implements StartPosition {}

    /** The current end of each partition: only events indexed from now on. */
    record Tail() implements StartPosition {}

    /**
     * The first position whose events were written at or after {@code time}, found by binary
     * search over the epochs' index timestamps. Every event written at or after {@code time} is
     * delivered. With bodies loaded, events written before {@code time} are not delivered either,
     * so the events delivered are exactly those with {@code timestamp >= time}. Without bodies
     * the store timestamps are unknown, and events written shortly before {@code time} (indexed at
     * or after it) may be delivered too.
     */
    record AtTime(Instant time) implements StartPosition {
        public AtTime {
            Objects.requireNonNull(time, "time");
        }
    }

    /** An explicit checkpoint (the same in every partition read). */
    record At(Checkpoint checkpoint) implements StartPosition {
        public At {
            Objects.requireNonNull(checkpoint, "checkpoint");
        }
    }

    static StartPosition stored() {
        return new Stored(new Beginning());
    }

    static StartPosition storedOr(StartPosition whenNone) {
        return new Stored(whenNone);
    }

    static StartPosition beginning() {
        return new Beginning();
    }

    static StartPosition tail() {
        return new Tail();
    }

    static StartPosition time(Instant time) {
        return new AtTime(time);
    }

    static StartPosition at(Checkpoint checkpoint) {
        return new At(checkpoint);
    }
}
