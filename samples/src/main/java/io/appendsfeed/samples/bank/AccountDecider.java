package io.appendsfeed.samples.bank;

import io.appendsfeed.samples.eventsourcing.CommandDecision;
import java.util.ArrayList;
import java.util.List;

/** The account's rules, pure: the same state and command always give the same decision. */
public final class AccountDecider {

    private AccountDecider() {}

    public static CommandDecision<AccountEvent> decide(AccountState state, AccountCommand command) {
        if (command instanceof AccountCommand.Open open) {
            if (state.opened()) {
                return open.owner().equals(state.owner()) && open.overdraftLimit() == state.overdraftLimit()
                        ? CommandDecision.accept() // the same request again: already done
                        : CommandDecision.reject("account is already open for " + state.owner());
            }
            return CommandDecision.accept(new AccountEvent.Opened(open.owner(), open.overdraftLimit()));
        }
        if (!state.opened()) {
            return CommandDecision.reject("account is not open");
        }
        if (command instanceof AccountCommand.Deposit d) {
            return CommandDecision.accept(new AccountEvent.Deposited(d.txId(), d.amount()));
        }
        AccountCommand.Withdraw w = (AccountCommand.Withdraw) command;
        long after = state.balance() - w.amount();
        if (after < -state.overdraftLimit()) {
            return CommandDecision.reject("withdrawing " + w.amount() + " from a balance of " + state.balance()
                    + " would pass the overdraft limit of " + state.overdraftLimit());
        }
        List<AccountEvent> events = new ArrayList<>();
        events.add(new AccountEvent.Withdrawn(w.txId(), w.amount()));
        if (after < 0 && state.balance() >= 0) {
            events.add(new AccountEvent.Overdrawn(w.txId(), after, state.overdraftLimit()));
        }
        return new CommandDecision.Accept<>(events);
    }
}
