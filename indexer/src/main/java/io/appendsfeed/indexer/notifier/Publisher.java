package io.appendsfeed.indexer.notifier;

import io.appendsfeed.model.feed.FeedNotification;
import java.util.List;

/**
 * Where the notifier sends its messages: one message per notification. Implementations:
 * {@link SnsPublisher} (an SNS topic, fanned out to each reactor's queue).
 */
public interface Publisher {

    /**
     * Sends each notification as one message (at least once: a retried call may send some again).
     *
     * @param notifications at most one per partition
     * @throws PublishFailedException when some were refused; those before may have been sent
     * @throws RuntimeException when the destination cannot be reached (e.g. an SDK exception)
     */
    void publish(List<FeedNotification> notifications);
}
