package io.appendsfeed.indexer.notifier;

import io.appendsfeed.indexer.RejectedRecord;
import java.util.List;

/**
 * Records of epoch Tips the notifier could not read (not of the store format, or a stream without
 * new images). Thrown after the notifications of the other records were published, so that the
 * invocation counts as failed (Lambda's error metric, retries as the event source mapping says) and
 * nothing readable waits for it.
 */
public class UnreadableEpochTipsException extends RuntimeException {

    private final List<RejectedRecord> rejected;

    public UnreadableEpochTipsException(List<RejectedRecord> rejected) {
        super(rejected.size() + " epoch Tip record(s) could not be read: " + rejected);
        this.rejected = List.copyOf(rejected);
    }

    public List<RejectedRecord> rejected() {
        return rejected;
    }
}
