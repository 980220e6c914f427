package io.appendsfeed.indexer.backfill;

import io.appendsfeed.indexer.FeedGapException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a {@link Backfill} did, so far (its progress reports) or in the end. Every stream not named in
 * {@code rejected} or {@code gaps} is in the feed from its first stored event up to where its Tip was when read.
 *
 * @param itemsScanned store items read (Tips and calves)
 * @param reservedItemsSkipped items of {@code $} streams (appendsfeed's own), never indexed
 * @param streams streams handed to the indexer
 * @param eventsIngested events the backfill added to the feed
 * @param duplicatesDropped events the feed already held (a re-run, or a live indexer got there first)
 * @param streamsReadAgain streams the scan did not see whole (written to while scanned), read again with a query
 * @param rejected items not of the store format, by key, with what is wrong; their streams are left out
 * @param gaps streams the indexer refused: the feed holds them up to an index their stored events no longer reach
 */
public record BackfillResult(long itemsScanned, long reservedItemsSkipped, long streams,
                             long eventsIngested, long duplicatesDropped, long streamsReadAgain, Map<String, String> rejected,
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
        return elapsed.isZero() ? 0 : itemsScanned * 1e9 / elapsed.toNanos();
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%,d items, %,d streams, %,d events ingested, %,d duplicates dropped, %,d streams read again,"
                        + " %d left out, in %ds (%,.0f items/s)", itemsScanned, streams, eventsIngested, duplicatesDropped, streamsReadAgain,
                rejected.size() + gaps.size(), elapsed.toSeconds(), itemsPerSecond());
    }
}
