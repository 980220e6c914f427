package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StartPosition;
import io.appendsfeed.reader.StoredCheckpoint;
import java.time.Instant;
import java.util.Optional;

/**
 * Where a partition's walk starts. An explicit start applies the first time this reader instance
 * opens the partition and is recorded as an override; after that (lease lost and taken again, an
 * override by someone else) the stored checkpoint rules.
 *
 * @param explicit whether an explicit position applies this time
 */
public record StartPlan(StartPosition position, boolean explicit) {

    /**
     * @param from the first position to read
     * @param notBefore events written before this are not handed over (start from a time), or null
     * @param committed the checkpoint stored now, or null
     */
    public record Resolved(Checkpoint from, Instant notBefore, Checkpoint committed) {}

    /** @throws RuntimeException when the checkpoint or the index cannot be read */
    public Resolved resolve(ReaderContext ctx, PartitionId p) {
        FeedReaderConfig config = ctx.config();
        Optional<StoredCheckpoint> stored = ctx.checkpoints().read(config.group(), p);
        if (position instanceof StartPosition.Stored s) {
            if (stored.isPresent()) {
                return new Resolved(stored.get().checkpoint(), null, stored.get().checkpoint());
            }
            return new Resolved(locate(ctx, p, s.whenNone()), notBefore(s.whenNone()), null);
        }
        if (!explicit) {
            return new StartPlan(StartPosition.storedOr(position), false).resolve(ctx, p);
        }
        Checkpoint from = locate(ctx, p, position);
        if (stored.isPresent() && !stored.get().checkpoint().equals(from)) {
            ctx.checkpoints().override(config.group(), p, from, "reader " + config.owner() + " configured to start at " + position);
            return new Resolved(from, notBefore(position), from);
        }
        return new Resolved(from, notBefore(position), stored.map(StoredCheckpoint::checkpoint).orElse(null));
    }

    private static Checkpoint locate(ReaderContext ctx, PartitionId p, StartPosition position) {
        if (position instanceof StartPosition.Beginning) {
            return Checkpoint.START;
        }
        if (position instanceof StartPosition.Tail) {
            return ctx.positions().tail(p);
        }
        if (position instanceof StartPosition.AtTime t) {
            return ctx.positions().firstIndexedAtOrAfter(p, t.time());
        }
        if (position instanceof StartPosition.At at) {
            return at.checkpoint();
        }
        throw new IllegalArgumentException("no position for " + position);
    }

    private static Instant notBefore(StartPosition position) {
        return position instanceof StartPosition.AtTime t ? t.time() : null;
    }
}
