package io.appendsfeed.reader;

import java.util.List;

/**
 * The outcome of {@link FeedReader#runUntilCaughtUp}.
 *
 * @param caughtUp every partition this instance held was read to its tail and handled (parked
 *                 streams count as handled) and committed; false when the time ran out or a
 *                 partition failed
 * @param lag per partition, taken when it stopped waiting: a partition read to its tail reports the tail
 *            its last read found (behind: 0), with no read of the index after the run; the others' tails are
 *            read then
 */
public record CatchUpResult(boolean caughtUp, List<PartitionLag> lag) {
    public CatchUpResult {
        lag = List.copyOf(lag);
    }
}
