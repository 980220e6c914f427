package io.appendsfeed.samples.demo;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.samples.bank.AccountId;
import io.appendsfeed.samples.bank.InMemoryOutbox;
import io.appendsfeed.samples.projector.BalanceRow;
import io.appendsfeed.samples.projector.BalanceTable;
import io.appendsfeed.samples.projector.StoreFold;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo's checks. Per stream: written (the writers' committed versions) = stored (read back
 * from the store) = indexed (the feed's spans) = handled (by each reactor), each event once and in
 * order. Then the reactors' results: one notification per {@code Overdrawn} event in the store,
 * and a balance table equal to the fold of every account read from the store.
 *
 * @param overdrawnInStore {@code Overdrawn} events in the store
 * @param balanceRows rows in the query table
 */
record Verdict(Agreement.Report report, long overdrawnInStore, int balanceRows) {

    static Verdict of(Workload workload, FeedTally feed, List<Reactor> reactors, InMemoryOutbox outbox, BalanceTable balances,
                      StoreClient store, List<AccountId> accounts, boolean caughtUp, Duration timeout) {
        StoreFold fold = StoreFold.read(store, accounts);
        Map<StreamName, Long> versions = new HashMap<>();
        fold.accounts().forEach((id, loaded) -> versions.put(id.stream(), loaded.version()));

        List<Tally> tallies = new ArrayList<>(List.of(workload.tally(), Tally.of("stored", versions), feed.tally()));
        reactors.stream().filter(Reactor::complete).forEach(r -> tallies.add(r.handled().tally(r.group())));

        List<String> problems = new ArrayList<>();
        if (!caughtUp) {
            problems.add("the feed and the reactors did not catch up within --timeout " + timeout);
        }
        Map<StreamName, Long> owed = new HashMap<>();
        fold.overdrawn().forEach((id, n) -> owed.put(id.stream(), n));
        Map<StreamName, Long> notified = new HashMap<>();
        outbox.published().forEach(n -> notified.merge(n.account().stream(), 1L, Long::sum));
        Agreement.Report notifications = Agreement.check(List.of(Tally.of("Overdrawn in the store", owed), Tally.of("notified", notified)));
        notifications.mismatches().forEach(m -> problems.add("notifier: " + m.stream() + " has " + m.counts().get(0)
                + " Overdrawn events in the store but " + m.counts().get(1) + " notifications"));
        List<BalanceRow> rows = balances.scan();
        problems.addAll(fold.differences(rows));
        return new Verdict(Agreement.check(tallies, problems), fold.overdrawnEvents(), rows.size());
    }
}
