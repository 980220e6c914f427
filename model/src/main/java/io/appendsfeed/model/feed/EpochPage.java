package io.appendsfeed.model.feed;

import java.util.List;

/**
 * @param records epoch events, in order and without gaps
 * @param atTail the active epoch's last item was read whole (the walker waits); false after a {@code Closed} or when unknown
 */
public record EpochPage(List<EpochRecord> records, boolean atTail) {

    public EpochPage {
        records = List.copyOf(records);
    }

    /** Nothing new was found, or the read took the tail with it. */
    public boolean tail() {
        return atTail || records.isEmpty();
    }
}
