package io.appendsfeed.samples.demo;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.samples.bank.AccountCommand;
import io.appendsfeed.samples.bank.AccountEvent;
import io.appendsfeed.samples.bank.AccountId;
import io.appendsfeed.samples.bank.AccountState;
import io.appendsfeed.samples.bank.Accounts;
import io.appendsfeed.samples.demo.Agreement.Tally;
import io.appendsfeed.samples.eventsourcing.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The demo's writers: each opens its share of the accounts, then deposits and withdraws on random accounts (so
 * writers collide and retry) until enough events are written or the time is up.
 */
public final class Workload {

    /** How far to go: at least one event per stream (opening each account is an event). */
    public record Plan(long events, int streams, int writers, Duration duration, long seed) {
        public Plan {
            if (streams < 1 || writers < 1 || events < streams) {
                throw new IllegalArgumentException("a workload needs 1 <= streams <= events and writers >= 1: " + this);
            }
        }
    }

    private final Accounts accounts;
    private final Plan plan;
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong commands = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong overdrafts = new AtomicLong();
    private final Map<StreamName, Long> versions = new ConcurrentHashMap<>();

    public Workload(Accounts accounts, Plan plan) {
        this.accounts = accounts;
        this.plan = plan;
    }

    public static AccountId account(int k) {
        return AccountId.of(String.format("%06d", k));
    }

    /** Runs the writers to the end, calling {@code progress} every second meanwhile; the counters can be read meanwhile. */
    public void run(Runnable progress) throws InterruptedException {
        Instant deadline = plan.duration() == null ? Instant.MAX : Instant.now().plus(plan.duration());
        List<Thread> threads = new ArrayList<>();
        List<RuntimeException> failures = new CopyOnWriteArrayList<>();
        for (int w = 0; w < plan.writers(); w++) {
            int writer = w;
            Thread t = new Thread(() -> {
                try {
                    write(writer, deadline);
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            }, "writer-" + w);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            while (t.isAlive()) {
                t.join(1000);
                progress.run();
            }
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("a writer failed: " + failures.get(0).getMessage(), failures.get(0));
        }
    }

    private void write(int writer, Instant deadline) {
        SplittableRandom random = new SplittableRandom(plan.seed() + writer);
        for (int k = writer; k < plan.streams(); k += plan.writers()) {
            long limit = 100 * (1 + random.nextInt(5)) * 100L; // 100 to 500 in cents
            execute(account(k), new AccountCommand.Open("owner " + k, limit));
        }
        for (long tx = 0; written.get() < plan.events() && Instant.now().isBefore(deadline); tx++) {
            AccountId account = account(random.nextInt(plan.streams()));
            String txId = "w" + writer + "-" + tx;
            long amount = (1 + random.nextInt(300)) * 100L;
            execute(account, random.nextInt(100) < 45 ? new AccountCommand.Deposit(txId, amount) : new AccountCommand.Withdraw(txId, amount));
        }
    }

    private void execute(AccountId account, AccountCommand command) {
        Outcome<AccountState, AccountEvent> outcome = accounts.execute(account, command);
        commands.incrementAndGet();
        if (outcome instanceof Outcome.Committed<AccountState, AccountEvent> c) {
            written.addAndGet(c.events().size());
            overdrafts.addAndGet(c.events().stream().filter(e -> e instanceof AccountEvent.Overdrawn).count());
            versions.merge(account.stream(), c.version(), Math::max);
        } else {
            rejected.incrementAndGet();
        }
    }

    public long written() { return written.get(); }
    public long commands() { return commands.get(); }
    public long rejected() { return rejected.get(); }
    public long overdrafts() { return overdrafts.get(); }
    public long conflicts() { return accounts.conflicts(); }

    /** Events per stream as the writers saw them committed (each stream's last version). */
    public Tally tally() {
        return Tally.of("written", versions);
    }
}
