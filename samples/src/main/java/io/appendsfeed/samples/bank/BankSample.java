package io.appendsfeed.samples.bank;

import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.reader.FeedReaderConfig;
import io.appendsfeed.samples.eventsourcing.Outcome;
import io.appendsfeed.samples.local.LocalEnvironment;
import io.appendsfeed.samples.local.LocalFeed;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** The bank sample: accounts with an overdraft limit, and one "overdrawn" notification per overdraft from the feed. */
public final class BankSample {

    private BankSample() {}

    public static void main(String[] args) {
        try (LocalEnvironment env = LocalEnvironment.fromArgs(args)) {
            run(env.dynamo(), env.streams(), "bank", System.out);
        }
    }

    /** Runs the story on tables {@code <prefix>-events} and {@code <prefix>-index}; returns the notifications published. */
    public static List<Notification> run(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String prefix, PrintStream out) {
        try (LocalFeed feed = LocalFeed.start(dynamo, streams, prefix + "-events", prefix + "-index", 1)) {
            Accounts accounts = new Accounts(feed.store());
            AccountId ann = AccountId.of("ann");
            List<AccountCommand> story = List.of(
                    new AccountCommand.Open("Ann", 100_00),          // may go 100.00 into the red
                    new AccountCommand.Deposit("salary", 50_00),
                    new AccountCommand.Withdraw("rent", 120_00),     // -70.00: overdrawn
                    new AccountCommand.Withdraw("bike", 80_00),      // -150.00 would pass the limit: rejected
                    new AccountCommand.Withdraw("lunch", 10_00),     // -80.00: the same overdraft
                    new AccountCommand.Deposit("refund", 100_00),    // +20.00
                    new AccountCommand.Withdraw("gift", 30_00));     // -10.00: overdrawn again
            for (AccountCommand c : story) {
                Outcome<AccountState, AccountEvent> o = accounts.execute(ann, c);
                out.println(describe(c, o));
            }

            InMemoryOutbox outbox = new InMemoryOutbox();
            FeedReaderConfig config = FeedReaderConfig.builder("overdraft-notifier", feed.indexTable(), feed.storeTable())
                    .eventTypes(Set.of(AccountEvent.Overdrawn.class.getSimpleName())) // others are filtered out before their bodies are read
                    .pollInterval(Duration.ofMillis(100)).build();
            try (FeedReader reader = new FeedReader(dynamo, config, new OverdraftNotifier(outbox))) {
                reader.start();
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (outbox.published().size() < 2) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("expected 2 notifications within 30 s, got " + outbox.published());
                    }
                    LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
                }
            }
            outbox.published().forEach(n -> out.printf("notify %s: account %s is overdrawn at %.2f (limit %.2f), by %s%n",
                    n.id(), n.account(), n.balance() / 100.0, n.overdraftLimit() / 100.0, n.txId()));
            return outbox.published();
        }
    }

    private static String describe(AccountCommand c, Outcome<AccountState, AccountEvent> o) {
        if (o instanceof Outcome.Committed<AccountState, AccountEvent> done) {
            return String.format("%-60s -> balance %8.2f, version %d, events %s", c, done.state().balance() / 100.0,
                    done.version(), done.events().stream().map(e -> e.getClass().getSimpleName()).toList());
        }
        return String.format("%-60s -> REJECTED: %s", c, ((Outcome.Rejected<AccountState, AccountEvent>) o).reason());
    }
}
