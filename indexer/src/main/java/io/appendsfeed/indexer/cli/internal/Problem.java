package io.appendsfeed.indexer.cli.internal;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.PartitionId;
import java.util.Objects;

/**
 * Something {@code feed verify} found wrong.
 *
 * @param stream the stream concerned, or null for a problem of an epoch
 * @param partition null when not known (a stream the index does not list)
 * @param position the epoch event where it shows, or null
 */
public record Problem(Kind kind, String stream, PartitionId partition, Checkpoint position, String expected, String found) {

    public enum Kind {
        /** The store has the stream; the index lists none of its events. */
        MISSING_STREAM,
        /** Events of a stream are not in the index: a span starts after the next expected index, and no later span fills it. */
        GAP,
        /** Events the index already listed are listed again. */
        DUPLICATE,
        /** Events come after later ones of the same stream (they fill a gap late). */
        OUT_OF_ORDER,
        /** The store has events after the last one indexed (or the indexer is behind: run again to tell). */
        NOT_INDEXED,
        /** The index lists events the store does not have. */
        BEYOND_STORE,
        /** A span is in a partition the stream does not route to. */
        WRONG_PARTITION,
        /** An epoch event this version cannot read, or epochs that do not end where the index says. */
        BAD_EPOCH
    }

    public Problem {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(found, "found");
    }
}
