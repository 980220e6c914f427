package io.appendsfeed.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.reader.StartPosition;
import io.appendsfeed.samples.eventsourcing.Outcome;
import io.appendsfeed.samples.local.LocalFeed;
import io.appendsfeed.samples.testing.Feeds;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalDynamoExtension.class)
class OverdraftNotificationTest {

    private static final AccountId ANN = AccountId.of("ann");

    private static FeedReaderConfig.Builder notifier(LocalFeed feed) {
        return FeedReaderConfig.builder("notifier", feed.indexTable(), feed.storeTable()).pollInterval(Duration.ofMillis(50));
    }

    @Test
    void each_overdraft_is_notified_once_even_when_the_feed_is_read_again_from_the_start(LocalDynamo local) {
        try (LocalFeed feed = Feeds.fresh(local, 1)) {
            Accounts accounts = new Accounts(feed.store());
            accounts.execute(ANN, new AccountCommand.Open("ann", 100));
            accounts.execute(ANN, new AccountCommand.Deposit("t1", 50));
            accounts.execute(ANN, new AccountCommand.Withdraw("t2", 100));   // -50: overdraft 1
            accounts.execute(ANN, new AccountCommand.Withdraw("t3", 30));    // -80: still the same overdraft
            assertThat(accounts.execute(ANN, new AccountCommand.Withdraw("t4", 100))).isInstanceOf(Outcome.Rejected.class);
            accounts.execute(ANN, new AccountCommand.Deposit("t5", 200));    // +120
            accounts.execute(ANN, new AccountCommand.Withdraw("t6", 130));   // -10: overdraft 2

            InMemoryOutbox outbox = new InMemoryOutbox();
            try (FeedReader reader = new FeedReader(local.dynamo(), notifier(feed).build(), new OverdraftNotifier(outbox))) {
                reader.start();
                await().atMost(Duration.ofSeconds(30)).until(() -> outbox.published().size() >= 2);
            }
            assertThat(outbox.published()).containsExactly(
                    new Notification("Account-ann@3", ANN, -50, 100, "t2"),
                    new Notification("Account-ann@7", ANN, -10, 100, "t6"));

            // the group is rewound to the very start (as after losing its checkpoint): everything is delivered again
            FeedReaderConfig again = notifier(feed).start(StartPosition.beginning()).build();
            assertThat(new FeedReader(local.dynamo(), again, new OverdraftNotifier(outbox))
                    .runUntilCaughtUp(Duration.ofSeconds(30)).caughtUp()).isTrue();
            assertThat(outbox.published()).hasSize(2);
            assertThat(outbox.duplicates()).isEqualTo(2);
        }
    }
}
