package io.appendsfeed.model.feed;

import java.util.List;

/**
 * What one read of a partition's epoch returned.
 *
 * @param records epoch events, in order and without gaps
 * @param atTail the read reached the partition's tail as it stood then: the active epoch's last item
 *               was read and every event it held is in {@code records}. A walker then waits before
 *               reading again instead of paying for one more read that can only come back empty.
 *               False after a {@code Closed} (the next epoch follows) and whenever the read could not
 *               tell; an empty read is at the tail whatever this says
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
