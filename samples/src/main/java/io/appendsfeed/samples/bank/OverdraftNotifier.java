package io.appendsfeed.samples.bank;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.StreamHandler;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link Notification} per {@code Overdrawn} event in the feed. The feed delivers at least once, so the id is the
 * event's position ({@code Account-42@7}): a redelivered event yields the same id, which the outbox publishes once.
 */
public final class OverdraftNotifier implements StreamHandler {

    private static final Logger log = LoggerFactory.getLogger(OverdraftNotifier.class);
    private static final String OVERDRAWN = AccountEvent.Overdrawn.class.getSimpleName();

    private final Outbox outbox;

    public OverdraftNotifier(Outbox outbox) {
        this.outbox = outbox;
    }

    /** @throws RuntimeException when the outbox fails; the reader retries the stream from these events */
    @Override
    public HandlerResult handle(StreamName stream, List<FeedEvent> events) {
        for (FeedEvent e : events) {
            if (e.type().equals(OVERDRAWN)) {
                AccountEvent.Overdrawn o = (AccountEvent.Overdrawn) Accounts.CODEC.decode(stream, e.index(), e.type(), e.data());
                Notification n = new Notification(stream + "@" + e.index(), AccountId.of(stream), o.balance(), o.overdraftLimit(), o.txId());
                if (outbox.publish(n)) {
                    log.debug("notified {}: overdrawn at {}", n.account(), n.balance());
                }
            }
        }
        return HandlerResult.handled();
    }
}
