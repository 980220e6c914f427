package io.appendsfeed.samples.bank;

/**
 * The fold of an account's events; also its snapshot (the Tip's unfold), so its JSON shape is
 * stored: change {@link Accounts#SNAPSHOT_TYPE} when changing it.
 *
 * @param transactions deposits and withdrawals so far
 */
public record AccountState(boolean opened, String owner, long balance, long overdraftLimit, long transactions) {

    public static final AccountState INITIAL = new AccountState(false, null, 0, 0, 0);

    public boolean overdrawn() {
        return balance < 0;
    }

    public AccountState evolve(AccountEvent event) {
        // Java 17: no pattern matching in switch yet, so instanceof in order
        if (event instanceof AccountEvent.Opened o) {
            return new AccountState(true, o.owner(), balance, o.overdraftLimit(), transactions);
        }
        if (event instanceof AccountEvent.Deposited d) {
            return new AccountState(opened, owner, balance + d.amount(), overdraftLimit, transactions + 1);
        }
        if (event instanceof AccountEvent.Withdrawn w) {
            return new AccountState(opened, owner, balance - w.amount(), overdraftLimit, transactions + 1);
        }
        return this; // Overdrawn records a fact about the balance; it does not change it
    }
}
