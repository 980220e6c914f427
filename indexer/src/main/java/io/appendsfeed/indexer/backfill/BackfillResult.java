package io.appendsfeed.indexer.backfill;

import io.appendsfeed.indexer.FeedGapException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What a {@link Backfill} did. Every stream not named in {@code rejected} or {@code gaps} is in
 * the feed from its first stored event up to where its Tip was when it was scanned.
 *
 * @param itemsScanned store items read (Tips and calves)
 * @param reservedItemsSkipped items of {@code $} streams (appendsfeed's own), never indexed
 * @param streams streams handed to the indexer
 * @param spans spans handed to the indexer (one per item, overlaps trimmed)
 * @param eventsIngested events the backfill added to the feed
 * @param duplicatesDropped events the feed already held (a re-run, or a live indexer got there first)
 * @param streamsReadAgain streams whose items the scan did not see whole (written to while scanned,
 *                         or with their first events removed), read again with a query
 * @param rejected items not of the store format, by key, with what is wrong; their streams are left
 *                 out entirely, since they cannot be indexed in order
 * @param gaps streams the indexer refused because the feed holds them up to an index their stored
 *             events no longer reach
 * @param elapsed how long the backfill took
 */
public record BackfillResult(long itemsScanned, long reservedItemsSkipped, long streams, long spans, long eventsIngested,
                             long duplicatesDropped, long streamsReadAgain, Map<String, String> rejected,
                             List<FeedGapException> gaps, Duration elapsed) {

    public BackfillResult {
        rejected = Map.copyOf(rejected);
        gaps = List.copyOf(gaps);
    }

    /** Whether every stream was indexed. */
    public boolean complete() {
        return rejected.isEmpty() && gaps.isEmpty();
    }

    public double itemsPerSecond() {
        return perSecond(itemsScanned, elapsed);
    }

    static double perSecond(long items, Duration elapsed) {
        return elapsed.isZero() ? 0 : items * 1e9 / elapsed.toNanos();
    }
}
