package io.appendsfeed.indexer.backfill;

import java.time.Duration;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How far a {@link Backfill} is.
 *
 * @param itemsScanned store items read so far
 * @param itemsEstimated the table's item count as DynamoDB last reported it (updated about every
 *                       six hours, so approximate), or -1 when unknown
 * @param streams streams assembled and handed to the indexer
 * @param eventsIngested events the backfill added to the feed
 * @param duplicatesDropped events already in the feed (a re-run, or a live indexer)
 * @param elapsed time since the start
 * @param done whether this is the final report
 */
public record BackfillProgress(long itemsScanned, long itemsEstimated, long streams, long eventsIngested,
                               long duplicatesDropped, Duration elapsed, boolean done) {

    private static final Logger log = LoggerFactory.getLogger(Backfill.class);

    /** Percent of the estimate scanned, capped at 99 until done; -1 when there is no estimate. */
    public int percent() {
        return done ? 100 : itemsEstimated <= 0 ? -1 : (int) Math.min(99, itemsScanned * 100 / itemsEstimated);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s%,d items%s, %,d streams, %,d events ingested, %,d duplicates, %,.0f items/s, %ds",
                percent() < 0 ? "" : percent() + "%, ", itemsScanned,
                itemsEstimated > 0 ? String.format(Locale.ROOT, " of ~%,d", itemsEstimated) : "", streams, eventsIngested,
                duplicatesDropped, BackfillResult.perSecond(itemsScanned, elapsed), elapsed.toSeconds());
    }

    /** The default progress report: one INFO line. */
    public static void log(BackfillProgress p) {
        log.info("backfill {}: {}", p.done() ? "done" : "progress", p);
    }
}
