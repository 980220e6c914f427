package io.appendsfeed.indexer.notifier;

import io.appendsfeed.indexer.ChangeRecord;
import io.appendsfeed.indexer.notifier.internal.TipPositions;
import io.appendsfeed.model.feed.FeedNotification;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a batch of the index table's own Streams records into one notification per partition whose
 * epoch Tip was written (the highest position of the batch) and publishes them. It never reads a
 * table: the records say everything. Writes that are not of an epoch Tip (calves, checkpoints and
 * leases, parked streams, the poller's positions, {@code $AppendsIndex-0}) send nothing.
 */
public final class Notifier {

    private static final Logger LOG = LoggerFactory.getLogger(Notifier.class);

    private final Publisher publisher;

    public Notifier(Publisher publisher) {
        this.publisher = Objects.requireNonNull(publisher, "publisher");
    }

    /**
     * @param records the batch, in delivery order
     * @throws PublishFailedException or another RuntimeException of the publisher: not (all) sent; deliver the
     *         batch again
     * @throws UnreadableEpochTipsException after publishing what the other records gave, when records of epoch
     *         Tips could not be read
     */
    public NotifierOutcome notify(List<ChangeRecord> records) {
        TipPositions.Reading reading = TipPositions.read(records);
        List<FeedNotification> notifications = reading.notifications();
        if (!notifications.isEmpty()) {
            publisher.publish(notifications);
        }
        LOG.info("notifier: {} records, {} epoch Tips, {} others ignored, published {}", records.size(), reading.epochTips(),
                reading.ignored(), notifications.stream().map(n -> n.partition() + "@" + n.position().display()).toList());
        if (!reading.rejected().isEmpty()) {
            reading.rejected().forEach(r -> LOG.error("notifier: {}", r));
            throw new UnreadableEpochTipsException(reading.rejected());
        }
        return new NotifierOutcome(notifications, records.size(), reading.epochTips(), reading.ignored());
    }
}
