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

    public double itemsPerSecond() {
        double s = elapsed.toNanos() / 1e9;
        return s <= 0 ? 0 : itemsScanned / s;
    }

    /** Percent of the estimate scanned, capped at 99 until done; -1 when there is no estimate. */
    public int percent() {
        if (done) {
            return 100;
        }
        if (itemsEstimated <= 0) {
            return -1;
        }
        return (int) Math.min(99, itemsScanned * 100 / itemsEstimated);
    }

    @Override
    public String toString() {
        String pct = percent() < 0 ? "" : percent() + "%, ";
        return String.format(Locale.ROOT, "%s%,d items%s, %,d streams, %,d events ingested, %,d duplicates, %,.0f items/s, %ds",
                pct, itemsScanned, itemsEstimated > 0 ? " of ~" + String.format(Locale.ROOT, "%,d", itemsEstimated) : "", streams,
                eventsIngested, duplicatesDropped, itemsPerSecond(), elapsed.toSeconds());
    }

    /** The default progress report: one INFO line. */
    public static void log(BackfillProgress p) {
        log.info("backfill {}: {}", p.done() ? "done" : "progress", p);
    }
}
