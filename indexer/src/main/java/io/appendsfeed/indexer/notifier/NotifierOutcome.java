package io.appendsfeed.indexer.notifier;

import io.appendsfeed.model.feed.FeedNotification;
import java.util.List;

/**
 * What one batch of the index table's Streams records gave.
 *
 * @param published the notifications sent: one per partition whose epoch Tip was written, with the
 *                  highest position of the batch
 * @param records records in the batch
 * @param epochTips records that were writes of an epoch's Tip
 * @param ignored records of anything else (calves, checkpoints, leases, parked streams, the index, ...)
 */
public record NotifierOutcome(List<FeedNotification> published, int records, int epochTips, int ignored) {
    public NotifierOutcome {
        published = List.copyOf(published);
        if (records < 0 || epochTips < 0 || ignored < 0) {
            throw new IllegalArgumentException("counts must be >= 0: records " + records + ", epochTips " + epochTips
                    + ", ignored " + ignored);
        }
    }
}
