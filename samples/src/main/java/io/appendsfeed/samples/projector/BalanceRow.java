package io.appendsfeed.samples.projector;

import io.appendsfeed.samples.bank.AccountId;
import io.appendsfeed.samples.bank.AccountState;
import java.util.Objects;

/** One account in the query table; {@code version}: the account's events folded into it. */
public record BalanceRow(AccountId account, String owner, long balance, long overdraftLimit, long transactions, long version) {

    public BalanceRow {
        Objects.requireNonNull(account, "account");
        if (version < 0) {
            throw new IllegalArgumentException("version must be >= 0, was " + version);
        }
    }

    public static BalanceRow of(AccountId account, AccountState state, long version) {
        return new BalanceRow(account, state.owner(), state.balance(), state.overdraftLimit(), state.transactions(), version);
    }

    public AccountState state() {
        return new AccountState(owner != null, owner, balance, overdraftLimit, transactions);
    }

    public boolean overdrawn() {
        return balance < 0;
    }
}
