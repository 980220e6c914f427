package io.appendsfeed.samples.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.reader.FeedReader;
import io.appendsfeed.samples.bank.AccountId;
import io.appendsfeed.samples.bank.Accounts;
import io.appendsfeed.samples.demo.Workload;
import io.appendsfeed.samples.local.LocalFeed;
import io.appendsfeed.samples.testing.Feeds;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalDynamoExtension.class)
class BalanceProjectionTest {

    private static final int STREAMS = 12;
    private static final List<AccountId> ACCOUNTS = IntStream.range(0, STREAMS).mapToObj(Workload::account).toList();

    @Test
    void query_table_equals_the_fold_of_every_stream_and_a_rebuild_from_the_start_restores_it(LocalDynamo local) throws Exception {
        try (LocalFeed feed = Feeds.fresh(local, 2)) {
            Workload workload = new Workload(new Accounts(feed.store()), new Workload.Plan(150, STREAMS, 2, null, 7));
            workload.run(() -> { });
            BalanceTable table = new BalanceTable(local.dynamo(), local.freshTableName("balances")).ensure();
            BalanceProjection projection = new BalanceProjection(local.dynamo(), table, feed.store(), feed.indexTable(), "balances");

            try (FeedReader reader = projection.reader()) {
                reader.start();
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                        assertThat(StoreFold.read(feed.store(), ACCOUNTS).differences(table.scan())).isEmpty());
            }
            StoreFold truth = StoreFold.read(feed.store(), ACCOUNTS);
            assertThat(table.scan()).hasSize(STREAMS);
            assertThat(truth.accounts().values().stream().mapToLong(l -> l.version()).sum()).isEqualTo(workload.written());

            // the table goes wrong (rows lost, a bad row ahead of the truth); rebuild it from 0_0
            table.clear();
            table.put(new BalanceRow(ACCOUNTS.get(1), "mallory", 1_000_000, 0, 1, 1_000));
            assertThat(truth.differences(table.scan())).isNotEmpty();

            assertThat(projection.rebuild(Duration.ofSeconds(60)).caughtUp()).isTrue();
            assertThat(truth.differences(table.scan())).isEmpty();
        }
    }

    @Test
    void differences_name_the_account_and_both_values() {
        StoreFold truth = new StoreFold(java.util.Map.of(), java.util.Map.of());
        assertThat(truth.differences(List.of(new BalanceRow(AccountId.of("x"), "o", 5, 0, 1, 2))))
                .containsExactly("Account-x: query table has BalanceRow[account=x, owner=o, balance=5, overdraftLimit=0,"
                        + " transactions=1, version=2], the store folds to null");
    }
}
