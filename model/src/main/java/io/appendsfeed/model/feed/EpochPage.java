package io.appendsfeed.model.feed;

import java.util.List;

/**
 * What one read of a partition's epoch returned.
 *
 * @param records epoch events, in order and without gaps
 * @param atTail the active epoch's last item was read and all it held is in {@code records}: the walker
 *               waits before reading again. False after a {@code Closed} and whenever the read could not tell
 */
public record EpochPage(List<EpochRecord> records, boolean atTail) {

    public EpochPage {
        records = List.copyOf(records);
    }

    /** Nothing new: at the tail. */
    public static EpochPage empty() {
        return new EpochPage(List.of(), true);
    }

    /** Nothing new was found, or the read took the tail with it. */
    public boolean tail() {
        return atTail || records.isEmpty();
    }
}
