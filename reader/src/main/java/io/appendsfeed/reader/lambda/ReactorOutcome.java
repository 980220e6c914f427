package io.appendsfeed.reader.lambda;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What one invocation of a Lambda-hosted reactor did.
 *
 * @param runs readers started (0 when every notification was already reached: a repeat or a stale one)
 * @param caughtUp notified: every notified position was reached; scheduled: every partition this
 *                 invocation could take was read to its tail
 * @param reached notified: the group's committed checkpoint in each notified partition, at the end
 * @param unmet notified: ids of the notifications whose position was not reached (to be delivered again)
 * @param problems partitions stopped on something they cannot read, with why
 * @param took the invocation's time in the reactor
 */
public record ReactorOutcome(int runs, boolean caughtUp, Map<PartitionId, Checkpoint> reached, List<String> unmet,
                             List<String> problems, Duration took) {
    public ReactorOutcome {
        reached = Collections.unmodifiableMap(new TreeMap<>(reached));
        unmet = List.copyOf(unmet);
        problems = List.copyOf(problems);
        Objects.requireNonNull(took, "took");
        if (runs < 0) {
            throw new IllegalArgumentException("runs must be >= 0, was " + runs);
        }
    }
}
