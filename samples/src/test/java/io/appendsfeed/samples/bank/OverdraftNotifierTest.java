package io.appendsfeed.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OverdraftNotifierTest {

    private static final StreamName ANN = AccountId.of("ann").stream();

    private static List<FeedEvent> events(long from, AccountEvent... events) {
        List<FeedEvent> out = new ArrayList<>();
        for (AccountEvent e : events) {
            EventData d = Accounts.CODEC.encode(e);
            out.add(new FeedEvent(ANN, from + out.size(), d.type(), d.data(), null, Instant.EPOCH, null, null));
        }
        return out;
    }

    @Test
    void one_notification_per_overdrawn_event_keyed_by_its_position() {
        InMemoryOutbox outbox = new InMemoryOutbox();
        new OverdraftNotifier(outbox).handle(ANN, events(0, new AccountEvent.Opened("ann", 50),
                new AccountEvent.Withdrawn("t1", 10), new AccountEvent.Overdrawn("t1", -10, 50)));
        assertThat(outbox.published()).containsExactly(new Notification("Account-ann@2", AccountId.of("ann"), -10, 50, "t1"));
    }

    @Test
    void redelivered_events_publish_nothing_twice() {
        InMemoryOutbox outbox = new InMemoryOutbox();
        OverdraftNotifier notifier = new OverdraftNotifier(outbox);
        List<FeedEvent> span = events(4, new AccountEvent.Withdrawn("t1", 10), new AccountEvent.Overdrawn("t1", -10, 50));
        notifier.handle(ANN, span);
        notifier.handle(ANN, span);
        notifier.handle(ANN, span.subList(1, 2));
        assertThat(outbox.published()).hasSize(1);
        assertThat(outbox.duplicates()).isEqualTo(2);
    }
}
