package io.appendsfeed.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.samples.bank.AccountEvent.Deposited;
import io.appendsfeed.samples.bank.AccountEvent.Opened;
import io.appendsfeed.samples.bank.AccountEvent.Overdrawn;
import io.appendsfeed.samples.bank.AccountEvent.Withdrawn;
import io.appendsfeed.samples.eventsourcing.CommandDecision;
import org.junit.jupiter.api.Test;

class AccountDeciderTest {

    private static AccountState given(AccountEvent... events) {
        AccountState s = AccountState.INITIAL;
        for (AccountEvent e : events) {
            s = s.evolve(e);
        }
        return s;
    }

    private static final AccountState OPEN_WITH_100 = given(new Opened("ann", 50), new Deposited("t1", 100));

    @Test
    void withdrawal_within_balance_is_just_a_withdrawal() {
        assertThat(Accounts.decide(OPEN_WITH_100, new AccountCommand.Withdraw("t2", 100)))
                .isEqualTo(CommandDecision.accept(new Withdrawn("t2", 100)));
    }

    @Test
    void withdrawal_into_the_red_records_one_overdraft() {
        assertThat(Accounts.decide(OPEN_WITH_100, new AccountCommand.Withdraw("t2", 130)))
                .isEqualTo(CommandDecision.accept(new Withdrawn("t2", 130), new Overdrawn("t2", -30, 50)));
    }

    @Test
    void further_withdrawal_while_overdrawn_is_not_a_new_overdraft() {
        AccountState red = given(new Opened("ann", 50), new Withdrawn("t1", 10), new Overdrawn("t1", -10, 50));
        assertThat(Accounts.decide(red, new AccountCommand.Withdraw("t2", 10)))
                .isEqualTo(CommandDecision.accept(new Withdrawn("t2", 10)));
    }

    @Test
    void back_in_credit_then_red_again_is_a_second_overdraft() {
        AccountState back = given(new Opened("ann", 50), new Withdrawn("t1", 10), new Overdrawn("t1", -10, 50),
                new Deposited("t2", 10));
        assertThat(Accounts.decide(back, new AccountCommand.Withdraw("t3", 1)))
                .isEqualTo(CommandDecision.accept(new Withdrawn("t3", 1), new Overdrawn("t3", -1, 50)));
    }

    @Test
    void withdrawal_past_the_overdraft_limit_is_rejected() {
        CommandDecision<AccountEvent> d = Accounts.decide(OPEN_WITH_100, new AccountCommand.Withdraw("t2", 151));
        assertThat(d).isInstanceOf(CommandDecision.Reject.class);
        assertThat(((CommandDecision.Reject<AccountEvent>) d).reason()).contains("overdraft limit of 50");
    }

    @Test
    void withdrawal_to_exactly_the_limit_is_accepted() {
        assertThat(Accounts.decide(OPEN_WITH_100, new AccountCommand.Withdraw("t2", 150)))
                .isEqualTo(CommandDecision.accept(new Withdrawn("t2", 150), new Overdrawn("t2", -50, 50)));
    }

    @Test
    void commands_on_an_account_never_opened_are_rejected() {
        assertThat(Accounts.decide(AccountState.INITIAL, new AccountCommand.Deposit("t1", 5)))
                .isEqualTo(CommandDecision.reject("account is not open"));
    }

    @Test
    void opening_twice_with_the_same_terms_is_already_done_and_with_others_is_rejected() {
        assertThat(Accounts.decide(OPEN_WITH_100, new AccountCommand.Open("ann", 50))).isEqualTo(CommandDecision.accept());
        assertThat(Accounts.decide(OPEN_WITH_100, new AccountCommand.Open("bob", 50))).isInstanceOf(CommandDecision.Reject.class);
    }

    @Test
    void fold_keeps_balance_and_counts_transactions() {
        AccountState s = given(new Opened("ann", 50), new Deposited("t1", 100), new Withdrawn("t2", 130),
                new Overdrawn("t2", -30, 50));
        assertThat(s).isEqualTo(new AccountState(true, "ann", -30, 50, 2));
        assertThat(s.overdrawn()).isTrue();
    }
}
