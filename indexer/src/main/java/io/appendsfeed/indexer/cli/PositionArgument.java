package io.appendsfeed.indexer.cli;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedPositions;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.reader.StartPosition;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * A position typed on the command line ({@code --to}, {@code --from}): a raw checkpoint
 * ({@code 1000042}), {@code EPOCH/OFFSET} ({@code 1/42}), {@code start}, {@code tail}, or a time
 * ({@code time:2026-11-23T09:00:00Z}, or the ISO-8601 instant alone).
 */
final class PositionArgument {

    static final String FORMS = "a raw checkpoint (1000042), EPOCH/OFFSET (1/42), start, tail,"
            + " or a time (time:2026-11-23T09:00:00Z or 2026-11-23T09:00:00Z)";

    private PositionArgument() {}

    /** @throws CliException naming the accepted forms */
    static StartPosition parse(String option, String text) {
        String t = text == null ? "" : text.trim();
        if (t.equalsIgnoreCase("start") || t.equalsIgnoreCase("beginning")) {
            return StartPosition.beginning();
        }
        if (t.equalsIgnoreCase("tail") || t.equalsIgnoreCase("end")) {
            return StartPosition.tail();
        }
        String time = t.regionMatches(true, 0, "time:", 0, 5) ? t.substring(5).trim() : t.contains("T") ? t : null;
        try {
            return time != null ? StartPosition.time(Instant.parse(time)) : StartPosition.at(Checkpoint.parse(t));
        } catch (DateTimeParseException e) {
            throw new CliException(option + " '" + text + "' is not an ISO-8601 UTC time: write it like 2026-11-23T09:00:00Z", e);
        } catch (IllegalArgumentException e) {
            throw new CliException(option + " '" + text + "' is not a position: give " + FORMS, e);
        }
    }

    /** The checkpoint a parsed position stands for in one partition (reads the index for tail and time). */
    static Checkpoint locate(FeedPositions positions, PartitionId p, StartPosition position) {
        if (position instanceof StartPosition.Tail) {
            return positions.tail(p);
        }
        if (position instanceof StartPosition.AtTime t) {
            return positions.firstIndexedAtOrAfter(p, t.time());
        }
        return position instanceof StartPosition.At at ? at.checkpoint() : Checkpoint.START;
    }

    /**
     * Refuses a position a reader could never get to: past the tail (it would wait for events
     * that never come there, and skip what is indexed up to it), or past the end of a closed epoch.
     *
     * @throws CliException showing the tail, or the epoch's last position
     */
    static void checkReachable(String option, FeedPositions positions, PartitionId p, Checkpoint target) {
        Checkpoint tail = positions.tail(p);
        if (target.compareTo(tail) > 0) {
            throw new CliException(option + " " + target + " is beyond the tail of partition " + p + " (" + tail
                    + "): nothing is indexed there yet. Use " + option + " tail for the current end, or a position up to "
                    + tail.display());
        }
        EpochId e = target.epoch();
        if (e.compareTo(tail.epoch()) < 0) {
            long length = positions.distance(p, Checkpoint.of(e, 0), Checkpoint.of(e.next(), 0));
            if (target.offset() > length) {
                throw new CliException(option + " " + target + " is past the end of epoch " + e + " of partition " + p
                        + ", which is closed with " + length + " epoch events: use at most " + e + "/" + length
                        + " (same as " + e.next() + "/0)");
            }
        }
    }
}
