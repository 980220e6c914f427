package io.appendsfeed.samples.bank;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.StoredEvent;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reactor that tells account holders they are overdrawn: for each {@code Overdrawn} event in
 * the feed, one {@link Notification} to the outbox, keyed by the event's stream and index so that
 * redelivery publishes nothing twice. Other events are passed over.
 */
public final class OverdraftNotifier {

    private static final Logger log = LoggerFactory.getLogger(OverdraftNotifier.class);

    private final Outbox outbox;

    public OverdraftNotifier(Outbox outbox) {
        this.outbox = outbox;
    }

    /**
     * Handles one account stream's events, in order.
     *
     * @return the index of the next event this reactor wants: after the last one handled
     * @throws RuntimeException when the outbox fails; events from the failed one on come again
     */
    public long handle(StreamName stream, List<StoredEvent> events) {
        long next = events.isEmpty() ? 0 : events.get(0).index();
        for (StoredEvent e : events) {
            if (e.type().equals(AccountEvent.Overdrawn.class.getSimpleName())) {
                AccountEvent.Overdrawn o = (AccountEvent.Overdrawn) Accounts.CATEGORY.codec().decode(e);
                Notification n = new Notification(stream + "@" + e.index(), AccountId.of(stream), o.balance(), o.overdraftLimit(), o.txId());
                if (outbox.publish(n)) {
                    log.debug("notified {} overdrawn at {}", n.account(), n.balance());
                }
            }
            next = e.index() + 1;
        }
        return next;
    }
}
