package io.appendsfeed.samples.projector;

import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.samples.bank.AccountId;
import io.appendsfeed.samples.bank.Accounts;
import io.appendsfeed.samples.demo.Workload;
import io.appendsfeed.samples.local.LocalEnvironment;
import io.appendsfeed.samples.local.LocalFeed;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** The read-model sample: balances projected from the feed, checked equal to the store, rebuilt from 0_0, checked again. */
public final class ProjectorSample {

    private static final int ACCOUNTS = 20;

    private ProjectorSample() {}

    public static void main(String[] args) throws InterruptedException {
        try (LocalEnvironment env = LocalEnvironment.fromArgs(args)) {
            List<String> differences = run(env.dynamo(), env.streams(), "projector", System.out);
            System.exit(differences.isEmpty() ? 0 : 1);
        }
    }

    /** @return where the rebuilt query table differs from the store (empty: equal) */
    public static List<String> run(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String prefix, PrintStream out)
            throws InterruptedException {
        List<AccountId> ids = IntStream.range(0, ACCOUNTS).mapToObj(Workload::account).toList();
        try (LocalFeed feed = LocalFeed.start(dynamo, streams, prefix + "-events", prefix + "-index", 1)) {
            Workload workload = new Workload(new Accounts(feed.store()), new Workload.Plan(300, ACCOUNTS, 2, null, 1));
            workload.run(() -> { });
            out.printf("wrote %d events to %d accounts%n", workload.written(), ACCOUNTS);

            BalanceTable table = new BalanceTable(dynamo, prefix + "-balances").ensure();
            BalanceProjection projection = new BalanceProjection(dynamo, table, feed.store(), feed.indexTable(), "balances");
            try (FeedReader reader = projection.reader()) {
                reader.start();
                awaitEqual(StoreFold.read(feed.store(), ids), table, Duration.ofMinutes(1));
            }
            out.println("query table " + table.name() + " (account, balance, version):");
            table.scan().stream().sorted((a, b) -> a.account().value().compareTo(b.account().value())).limit(5)
                    .forEach(r -> out.printf("  %s %10.2f %4d%n", r.account(), r.balance() / 100.0, r.version()));
            out.println("  ...");

            out.println("rebuilding from 0_0: clear the table, read the whole feed again");
            boolean caughtUp = projection.rebuild(Duration.ofMinutes(1)).caughtUp();
            List<String> differences = StoreFold.read(feed.store(), ids).differences(table.scan());
            out.printf("rebuilt (reached the tail: %s); the query table %s the fold of every stream in the store%n",
                    caughtUp, differences.isEmpty() ? "EQUALS" : "DIFFERS FROM");
            differences.forEach(d -> out.println("  " + d));
            return differences;
        }
    }

    private static void awaitEqual(StoreFold truth, BalanceTable table, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!truth.differences(table.scan()).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the projection did not catch up within " + timeout + ": "
                        + truth.differences(table.scan()));
            }
            LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
        }
    }
}
