package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.CheckpointStore.CommitResult;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.LeaseStore.Lease;
import io.appendsfeed.reader.StartPosition;
import io.appendsfeed.reader.CheckpointStore.StoredCheckpoint;
import java.time.Instant;
import java.util.Optional;

/**
 * Where a partition's walk starts. An explicit start applies the first time this instance opens the
 * partition, recorded as an override under the runner's own lease; after that the stored checkpoint rules.
 *
 * @param explicit whether an explicit position applies this time
 */
public record StartPlan(StartPosition position, boolean explicit) {

    /** How resolving ended: where to start, or the lease was found lost while recording the start. */
    public sealed interface Outcome permits Resolved, LeaseLost {}

    /**
     * @param from the first position to read
     * @param notBefore events written before this are not handed over (start from a time), or null
     * @param committed the checkpoint stored now, or null
     */
    public record Resolved(Checkpoint from, Instant notBefore, Checkpoint committed) implements Outcome {}

    /** @param currentOwner who holds the lease now, or null when nobody does */
    public record LeaseLost(String currentOwner) implements Outcome {}

    /**
     * @param lease the lease the runner holds, or null without leases
     * @throws RuntimeException when the checkpoint or the index cannot be read or written
     */
    public Outcome resolve(ReaderContext ctx, PartitionId p, Lease lease) {
        FeedReaderConfig config = ctx.config();
        Optional<Checkpoint> stored = ctx.checkpoints().read(config.group(), p).map(StoredCheckpoint::checkpoint);
        StartPosition start = position instanceof StartPosition.Stored s ? s.whenNone() : position;
        if (!explicit || position instanceof StartPosition.Stored) {
            return stored.isPresent() ? new Resolved(stored.get(), null, stored.get())
                    : new Resolved(locate(ctx, p, start), notBefore(start), null);
        }
        Checkpoint from = locate(ctx, p, start);
        if (stored.isPresent() && !stored.get().equals(from)) {
            String reason = "reader " + config.owner() + " configured to start at " + position;
            if (lease == null) {
                ctx.checkpoints().override(config.group(), p, from, reason); // no lease of ours to keep
            } else if (ctx.checkpoints().overrideHeld(config.group(), p, from, reason, lease) instanceof CommitResult.LeaseLost lost) {
                return new LeaseLost(lost.currentOwner());
            }
            return new Resolved(from, notBefore(start), from);
        }
        return new Resolved(from, notBefore(start), stored.orElse(null));
    }

    private static Checkpoint locate(ReaderContext ctx, PartitionId p, StartPosition position) {
        if (position instanceof StartPosition.Tail) {
            return ctx.feed().tail(p);
        }
        if (position instanceof StartPosition.AtTime t) {
            return ctx.feed().firstIndexedAtOrAfter(p, t.time());
        }
        return position instanceof StartPosition.At at ? at.checkpoint() : Checkpoint.START; // Beginning
    }

    private static Instant notBefore(StartPosition position) {
        return position instanceof StartPosition.AtTime t ? t.time() : null;
    }
}
