package io.appendsfeed.samples.bank;

import io.appendsfeed.model.Decider;
import io.appendsfeed.model.Decider.Loaded;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.samples.eventsourcing.CommandDecision;
import io.appendsfeed.samples.eventsourcing.JsonEventCodec;
import io.appendsfeed.samples.eventsourcing.Outcome;
import io.appendsfeed.samples.eventsourcing.Transactor;
import java.util.ArrayList;
import java.util.List;

/** The bank's accounts, each a stream {@code Account-<id>}: the rules ({@link #decide}) and the service. Thread-safe. */
public final class Accounts {

    /** The snapshot unfold's type; the version suffix changes whenever {@link AccountState}'s shape does. */
    public static final String SNAPSHOT_TYPE = "Snapshot.v1";

    public static final JsonEventCodec<AccountEvent> CODEC = JsonEventCodec.forSealed(AccountEvent.class);

    public static final Decider.Category<AccountState, AccountEvent> CATEGORY = CODEC.category(AccountState.INITIAL,
            AccountState::evolve, AccountState.class, SNAPSHOT_TYPE);

    private final Transactor<AccountState, AccountEvent> transactor;

    public Accounts(StoreClient store) {
        this.transactor = new Transactor<>(store, CATEGORY);
    }

    /**
     * @return committed (no events when it was already done) or rejected with the reason
     * @throws io.appendsfeed.model.Decider.TooManyConflictsException when other writers kept winning
     */
    public Outcome<AccountState, AccountEvent> execute(AccountId account, AccountCommand command) {
        return transactor.transact(account.stream(), state -> decide(state, command));
    }

    public Loaded<AccountState> read(AccountId account) {
        return transactor.load(account.stream(), false);
    }

    /** Conflicts with other writers met (and resolved by deciding again) so far. */
    public long conflicts() {
        return transactor.conflicts();
    }

    /** The account's rules, pure: the same state and command always give the same decision. */
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
