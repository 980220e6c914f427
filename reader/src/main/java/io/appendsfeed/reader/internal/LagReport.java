package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.FeedReader.PartitionLag;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The lag of the partitions an instance holds, from its runners' snapshots, the scheduler and the index tails. */
final class LagReport {

    private LagReport() {}

    /**
     * @param tolerant report a partition whose tail cannot be read with an unknown tail instead of throwing
     * @param readToTail partitions whose runner had handled everything up to the tail its last read
     *                   found: their tail is what they handled, as of that read, and is not read again.
     *                   A catch-up run ends so; reading the epoch's Tip once more for its lag cost as
     *                   much as the Tip is big (an equinox-js epoch Tip is up to 48 KiB: 6 RCU, a
     *                   twentieth of reading 100,000 events index-only)
     */
    static List<PartitionLag> of(ReaderContext ctx, List<PartitionRunner> runners, boolean tolerant,
                                 Set<PartitionId> readToTail) {
        List<PartitionLag> out = new ArrayList<>();
        Instant now = ctx.config().clock().instant();
        for (PartitionRunner r : runners) {
            RunnerSnapshot snap = r.snapshot();
            PartitionId p = r.partition();
            Scheduler.Status st = ctx.scheduler().status(p);
            Checkpoint handled = st != null ? st.handled() : snap.committed();
            Checkpoint from = handled == null ? Checkpoint.START : handled;
            int failing = st == null ? 0 : st.failingStreams();
            if (readToTail.contains(p)) {
                out.add(new PartitionLag(p, snap.state(), snap.committed(), handled, handled, 0, Duration.ZERO, failing,
                        snap.error()));
                continue;
            }
            try {
                Checkpoint tail = ctx.feed().tail(p);
                long behind = ctx.feed().distance(p, from, tail);
                Duration age = Duration.ZERO;
                if (st != null && st.oldestUnhandled() != null) {
                    age = Duration.between(st.oldestUnhandled(), now);
                } else if (behind > 0) {
                    age = ctx.feed().age(p, from, now);
                }
                out.add(new PartitionLag(p, snap.state(), snap.committed(), handled, tail, behind,
                        age.isNegative() ? Duration.ZERO : age, failing, snap.error()));
            } catch (RuntimeException e) {
                if (!tolerant) {
                    throw e;
                }
                String why = "tail unknown, the index could not be read: " + e;
                out.add(new PartitionLag(p, snap.state(), snap.committed(), handled, null, -1, null, failing,
                        snap.error() == null ? why : snap.error()));
            }
        }
        return out;
    }
}
