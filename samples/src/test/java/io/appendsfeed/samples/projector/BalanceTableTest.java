package io.appendsfeed.samples.projector;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.samples.bank.AccountId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalDynamoExtension.class)
class BalanceTableTest {

    private static final AccountId ANN = AccountId.of("ann");

    @Test
    void a_row_never_goes_back_to_an_older_or_equal_version(LocalDynamo local) {
        BalanceTable table = new BalanceTable(local.dynamo(), local.freshTableName("balances")).ensure();
        assertThat(table.put(new BalanceRow(ANN, "ann", 100, 50, 1, 2))).isTrue();
        assertThat(table.put(new BalanceRow(ANN, "ann", 70, 50, 1, 2))).isFalse();
        assertThat(table.put(new BalanceRow(ANN, "ann", 0, 50, 0, 1))).isFalse();
        assertThat(table.get(ANN)).contains(new BalanceRow(ANN, "ann", 100, 50, 1, 2));
        assertThat(table.put(new BalanceRow(ANN, "ann", -30, 50, 2, 4))).isTrue();
        assertThat(table.get(ANN).orElseThrow().overdrawn()).isTrue();
    }

    @Test
    void scan_returns_every_row_and_clear_removes_them(LocalDynamo local) {
        BalanceTable table = new BalanceTable(local.dynamo(), local.freshTableName("balances")).ensure();
        for (int k = 0; k < 5; k++) {
            table.put(new BalanceRow(AccountId.of("a" + k), "o" + k, k, 0, k, k + 1));
        }
        assertThat(table.scan()).hasSize(5).extracting(BalanceRow::balance).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L);
        table.clear();
        assertThat(table.scan()).isEmpty();
        assertThat(table.get(AccountId.of("a1"))).isEmpty();
    }
}
