package io.appendsfeed.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreTables;
import io.appendsfeed.model.store.Tip;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import io.appendsfeed.samples.eventsourcing.CommandDecision;
import io.appendsfeed.model.Decider.Loaded;
import io.appendsfeed.samples.eventsourcing.Outcome;
import io.appendsfeed.samples.eventsourcing.Transactor;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

@ExtendWith(LocalDynamoExtension.class)
class AccountsTest {

    private static final AccountId ANN = AccountId.of("ann");

    private static StoreClient store(LocalDynamo local, StoreConfig.Builder config) {
        StoreTables.ensure(local.dynamo(), config.build().table(), StreamViewType.NEW_IMAGE);
        return new StoreClient(local.dynamo(), config.build());
    }

    @Test
    void balance_is_kept_as_the_tips_unfold_and_loads_from_it(LocalDynamo local) {
        StoreClient store = store(local, StoreConfig.builder(local.freshTableName("bank")));
        Accounts accounts = new Accounts(store);
        accounts.execute(ANN, new AccountCommand.Open("ann", 50));
        accounts.execute(ANN, new AccountCommand.Deposit("t1", 100));
        Outcome<AccountState, AccountEvent> out = accounts.execute(ANN, new AccountCommand.Withdraw("t2", 130));

        assertThat(out).isEqualTo(new Outcome.Committed<>(4, List.of(new AccountEvent.Withdrawn("t2", 130),
                new AccountEvent.Overdrawn("t2", -30, 50)), new AccountState(true, "ann", -30, 50, 2)));
        Tip tip = store.readTip(ANN.stream(), true).orElseThrow();
        assertThat(tip.unfolds()).singleElement().satisfies(u -> {
            assertThat(u.type()).isEqualTo(Accounts.SNAPSHOT_TYPE);
            assertThat(u.index()).isEqualTo(4);
        });
        assertThat(new Accounts(store).read(ANN)).isEqualTo(new Loaded<>(new AccountState(true, "ann", -30, 50, 2), 4L));
    }

    @Test
    void overdraft_limit_is_enforced_and_a_rejection_writes_nothing(LocalDynamo local) {
        StoreClient store = store(local, StoreConfig.builder(local.freshTableName("bank")));
        Accounts accounts = new Accounts(store);
        accounts.execute(ANN, new AccountCommand.Open("ann", 50));
        Outcome<AccountState, AccountEvent> out = accounts.execute(ANN, new AccountCommand.Withdraw("t1", 51));
        assertThat(out).isInstanceOf(Outcome.Rejected.class);
        assertThat(store.readAll(ANN.stream(), Read.forward(0))).hasSize(1);
    }

    @Test
    void without_a_snapshot_the_state_folds_every_event_from_the_calves(LocalDynamo local) {
        StoreClient store = store(local, StoreConfig.builder(local.freshTableName("bank")).tipMaxEvents(3));
        StreamName s = ANN.stream();
        store.append(s, Expected.noStream(), List.of(Accounts.CODEC.encode(new AccountEvent.Opened("ann", 0))));
        for (int k = 1; k <= 7; k++) { // appends without unfolds, as another writer of the format might; the Tip calves
            store.append(s, Expected.version(k), List.of(Accounts.CODEC.encode(new AccountEvent.Deposited("t" + k, 10))));
        }
        assertThat(store.readTip(s, true).orElseThrow().events()).hasSizeLessThan(8);
        assertThat(new Accounts(store).read(ANN)).isEqualTo(new Loaded<>(new AccountState(true, "ann", 70, 0, 7), 8L));
    }

    @Test
    void a_writer_that_loses_the_race_decides_again_on_the_winners_state(LocalDynamo local) {
        StoreClient store = store(local, StoreConfig.builder(local.freshTableName("bank")));
        StoreClient other = new StoreClient(local.dynamo(), store.config());
        Accounts accounts = new Accounts(store);
        accounts.execute(ANN, new AccountCommand.Open("ann", 0));
        accounts.execute(ANN, new AccountCommand.Deposit("t1", 100));

        Transactor<AccountState, AccountEvent> transactor = new Transactor<>(store, Accounts.CATEGORY);
        AtomicBoolean interfered = new AtomicBoolean();
        Outcome<AccountState, AccountEvent> out = transactor.transact(ANN.stream(), state -> {
            if (interfered.compareAndSet(false, true)) { // between our load and our append, another writer takes 80
                new Accounts(other).execute(ANN, new AccountCommand.Withdraw("other", 80));
            }
            return Accounts.decide(state, new AccountCommand.Withdraw("t2", 60));
        });

        assertThat(transactor.conflicts()).isEqualTo(1);
        assertThat(out).isInstanceOf(Outcome.Rejected.class); // 100 - 80 = 20 left: 60 would pass the limit of 0
        assertThat(accounts.read(ANN).state().balance()).isEqualTo(20);
    }

    @Test
    void an_accepted_decision_with_no_events_writes_nothing(LocalDynamo local) {
        StoreClient store = store(local, StoreConfig.builder(local.freshTableName("bank")));
        Accounts accounts = new Accounts(store);
        accounts.execute(ANN, new AccountCommand.Open("ann", 0));
        String etag = store.readTip(ANN.stream(), true).orElseThrow().etag();
        Transactor<AccountState, AccountEvent> transactor = new Transactor<>(store, Accounts.CATEGORY);
        assertThat(transactor.transact(ANN.stream(), s -> CommandDecision.accept())).isInstanceOf(Outcome.Committed.class);
        assertThat(accounts.execute(ANN, new AccountCommand.Open("ann", 0))).isInstanceOf(Outcome.Committed.class);
        assertThat(store.readTip(ANN.stream(), true).orElseThrow().etag()).isEqualTo(etag);
    }

    @Test
    void concurrent_writers_on_one_account_lose_no_deposit(LocalDynamo local) throws Exception {
        StoreClient store = store(local, StoreConfig.builder(local.freshTableName("bank")));
        new Accounts(store).execute(ANN, new AccountCommand.Open("ann", 0));
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread[] writers = new Thread[4];
        for (int w = 0; w < writers.length; w++) {
            Accounts mine = new Accounts(new StoreClient(local.dynamo(), store.config()));
            int id = w;
            writers[w] = new Thread(() -> {
                // 3 each: a writer loses a race only to another's commit, so it can lose at most 9 < MAX_ATTEMPTS times
                for (int k = 0; k < 3; k++) {
                    mine.execute(ANN, new AccountCommand.Deposit("w" + id + "-" + k, 1));
                }
            });
            writers[w].setUncaughtExceptionHandler((t, e) -> failures.add(e));
            writers[w].start();
        }
        for (Thread t : writers) {
            t.join();
        }
        assertThat(failures).isEmpty();
        assertThat(new Accounts(store).read(ANN)).isEqualTo(new Loaded<>(new AccountState(true, "ann", 12, 0, 12), 13L));
    }
}
