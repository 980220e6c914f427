package io.appendsfeed.samples.bank;

import io.appendsfeed.samples.eventsourcing.Decision;
import java.util.ArrayList;
import java.util.List;

/** The account's rules, pure: the same state and command always give the same decision. */
public final class AccountDecider {

    private AccountDecider() {}

    public static Decision<AccountEvent> decide(AccountState state, AccountCommand command) {
        if (command instanceof AccountCommand.Open open) {
            if (state.opened()) {
                return open.owner().equals(state.owner()) && open.overdraftLimit() == state.overdraftLimit()
                        ? Decision.accept() // the same request again: already done
                        : Decision.reject("account is already open for " + state.owner());
            }
            return Decision.accept(new AccountEvent.Opened(open.owner(), open.overdraftLimit()));
        }
        if (!state.opened()) {
            return Decision.reject("account is not open");
        }
        if (command instanceof AccountCommand.Deposit d) {
            return Decision.accept(new AccountEvent.Deposited(d.txId(), d.amount()));
        }
        AccountCommand.Withdraw w = (AccountCommand.Withdraw) command;
        long after = state.balance() - w.amount();
        if (after < -state.overdraftLimit()) {
            return Decision.reject("withdrawing " + w.amount() + " from a balance of " + state.balance()
                    + " would pass the overdraft limit of " + state.overdraftLimit());
        }
        List<AccountEvent> events = new ArrayList<>();
        events.add(new AccountEvent.Withdrawn(w.txId(), w.amount()));
        if (after < 0 && state.balance() >= 0) {
            events.add(new AccountEvent.Overdrawn(w.txId(), after, state.overdraftLimit()));
        }
        return new Decision.Accept<>(events);
    }
}
