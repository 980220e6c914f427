package io.appendsfeed.indexer.notifier;

import io.appendsfeed.model.feed.FeedNotification;
import java.util.List;

/** Where the notifier sends its messages, one per notification: {@link SnsPublisher}, or a test's. */
public interface Publisher {

    /**
     * Sends each notification as one message (at least once: a retried call may send some again).
     *
     * @param notifications at most one per partition
     * @throws RuntimeException when some were not sent (e.g. {@link SnsPublisher.PublishFailedException}); those
     *         before may have been
     */
    void publish(List<FeedNotification> notifications);
}
