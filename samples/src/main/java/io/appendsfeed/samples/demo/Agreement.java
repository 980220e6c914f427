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
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Do the tallies agree: the same count per stream in each, no problem noticed? The demo's exit code comes from here. */
public final class Agreement {

    private Agreement() {}

    /** Events per stream as one party ({@code name}: the writers, the feed, a reactor) saw them, with the problems it noticed. */
    public record Tally(String name, Map<StreamName, Long> perStream, List<String> problems) {

        public Tally {
            perStream = Collections.unmodifiableMap(new TreeMap<>(perStream));
            problems = List.copyOf(problems);
        }

        public static Tally of(String name, Map<StreamName, Long> perStream) {
            return new Tally(name, perStream, List.of());
        }

        public long total() {
            return perStream.values().stream().mapToLong(Long::longValue).sum();
        }

        public long count(StreamName stream) {
            return perStream.getOrDefault(stream, 0L);
        }
    }

    /** The verdict with the facts behind it: each stream the tallies count differently is a problem naming its counts. */
    public record Report(List<Tally> tallies, List<String> problems) {

        public boolean agrees() {
            return problems.isEmpty();
        }

        /** A few lines for people: the totals, then up to {@code maxDetails} problems. */
        public String render(int maxDetails) {
            StringBuilder b = new StringBuilder();
            for (Tally t : tallies) {
                b.append(String.format("  %-10s %,10d events in %,d streams%n", t.name(), t.total(), t.perStream().size()));
            }
            if (agrees()) {
                return b.append("  AGREE: every stream has the same events in each, once, in order\n").toString();
            }
            b.append(String.format("  DISAGREE: %,d problems%n", problems.size()));
            problems.stream().limit(maxDetails).forEach(p -> b.append("    ").append(p).append('\n'));
            return b.toString();
        }
    }

    /** The demo's checks, with the {@code Overdrawn} events in the store and the rows in the query table. */
    record Verdict(Report report, long overdrawnInStore, int balanceRows) {}

    /** @param otherProblems found by other checks: they make the tallies disagree too */
    public static Report check(List<Tally> tallies, List<String> otherProblems) {
        if (tallies.size() < 2) {
            throw new IllegalArgumentException("agreement needs at least two tallies, got " + tallies.size());
        }
        TreeSet<StreamName> streams = new TreeSet<>();
        tallies.forEach(t -> streams.addAll(t.perStream().keySet()));
        List<String> problems = new ArrayList<>();
        for (StreamName s : streams) {
            if (tallies.stream().map(t -> t.count(s)).distinct().count() > 1) {
                problems.add(s + ": " + tallies.stream().map(t -> t.name() + " " + t.count(s)).collect(Collectors.joining(", ")));
            }
        }
        tallies.forEach(t -> t.problems().forEach(p -> problems.add(t.name() + ": " + p)));
        problems.addAll(otherProblems);
        return new Report(List.copyOf(tallies), problems);
    }

    /**
     * Per stream written = stored = indexed = handled (each complete reactor), each event once and in order; one
     * notification per {@code Overdrawn} event in the store; the balance table equal to the fold of the store.
     */
    static Verdict verdict(Workload workload, FeedTally feed, List<DemoRun.Reactor> reactors, InMemoryOutbox outbox,
                           BalanceTable balances, StoreClient store, List<AccountId> accounts, boolean caughtUp, Duration timeout) {
        StoreFold fold = StoreFold.read(store, accounts);
        Map<StreamName, Long> versions = new HashMap<>();
        fold.accounts().forEach((id, loaded) -> versions.put(id.stream(), loaded.version()));
        List<Tally> tallies = new ArrayList<>(List.of(workload.tally(), Tally.of("stored", versions), feed.tally()));
        reactors.stream().filter(DemoRun.Reactor::complete).forEach(r -> tallies.add(r.handled().tally(r.group())));

        List<String> problems = new ArrayList<>();
        if (!caughtUp) {
            problems.add("the feed and the reactors did not catch up within --timeout " + timeout);
        }
        Map<StreamName, Long> owed = new HashMap<>();
        fold.overdrawn().forEach((id, n) -> owed.put(id.stream(), n));
        Map<StreamName, Long> notified = new HashMap<>();
        outbox.published().forEach(n -> notified.merge(n.account().stream(), 1L, Long::sum));
        // per account, the Overdrawn events in the store against the notifications published
        check(List.of(Tally.of("owed", owed), Tally.of("notified", notified)), List.of()).problems()
                .forEach(p -> problems.add("notifier: " + p));
        List<BalanceRow> rows = balances.scan();
        problems.addAll(fold.differences(rows));
        return new Verdict(check(tallies, problems), fold.overdrawnEvents(), rows.size());
    }
}
