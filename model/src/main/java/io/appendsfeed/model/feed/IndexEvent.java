package io.appendsfeed.model.feed;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Events of {@code $AppendsIndex-0}. JSON bodies (see {@link FeedCodec}) use exactly the field
 * names of the design so that other implementations read them:
 * {@code Started {"partition":0,"epoch":1}} and {@code Snapshotted {"active":{"0":1}}}.
 */
public sealed interface IndexEvent {

    String STARTED = "Started";
    String SNAPSHOTTED = "Snapshotted";

    /** The event type name stored in {@code c}. */
    String type();

    /** An epoch became the active one of its partition. */
    record Started(PartitionId partition, EpochId epoch) implements IndexEvent {
        public Started {
            Objects.requireNonNull(partition, "partition");
            Objects.requireNonNull(epoch, "epoch");
        }

        @Override
        public String type() {
            return STARTED;
        }
    }

    /** The active epoch of every partition known so far. */
    record Snapshotted(Map<PartitionId, EpochId> active) implements IndexEvent {
        public Snapshotted {
            active = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(active, "active")));
        }

        @Override
        public String type() {
            return SNAPSHOTTED;
        }
    }
}
