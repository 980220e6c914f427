package io.appendsfeed.samples.projector;

import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.samples.bank.AccountEvent;
import io.appendsfeed.samples.bank.AccountId;
import io.appendsfeed.samples.bank.AccountState;
import io.appendsfeed.samples.bank.Accounts;
import io.appendsfeed.model.Decider.Loaded;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every account folded from all its events in the store (strongly consistent, snapshots ignored): a projection's truth.
 *
 * @param overdrawn {@code Overdrawn} events per account: the notifications owed
 */
public record StoreFold(Map<AccountId, Loaded<AccountState>> accounts, Map<AccountId, Long> overdrawn) {

    public long overdrawnEvents() {
        return overdrawn.values().stream().mapToLong(Long::longValue).sum();
    }

    public static StoreFold read(StoreClient store, Collection<AccountId> ids) {
        Map<AccountId, Loaded<AccountState>> out = new TreeMap<>((a, b) -> a.value().compareTo(b.value()));
        Map<AccountId, Long> overdrawn = new TreeMap<>((a, b) -> a.value().compareTo(b.value()));
        for (AccountId id : ids) {
            AccountState state = AccountState.INITIAL;
            long version = 0;
            for (StoredEvent e : store.readAll(id.stream(), Read.forward(0).strongly())) {
                AccountEvent event = Accounts.CODEC.decode(e);
                if (event instanceof AccountEvent.Overdrawn) {
                    overdrawn.merge(id, 1L, Long::sum);
                }
                state = state.evolve(event);
                version = e.index() + 1;
            }
            if (version > 0) {
                out.put(id, new Loaded<>(state, version));
            }
        }
        return new StoreFold(java.util.Collections.unmodifiableMap(out), java.util.Collections.unmodifiableMap(overdrawn));
    }

    /** Where the query table differs from the store, one line per account; empty when equal. */
    public List<String> differences(List<BalanceRow> rows) {
        List<String> out = new ArrayList<>();
        Set<AccountId> seen = new TreeSet<>((a, b) -> a.value().compareTo(b.value()));
        for (BalanceRow row : rows) {
            seen.add(row.account());
            Loaded<AccountState> truth = accounts.get(row.account());
            BalanceRow expected = truth == null ? null : BalanceRow.of(row.account(), truth.state(), truth.version());
            if (!Objects.equals(row, expected)) {
                out.add(row.account().stream() + ": query table has " + row + ", the store folds to " + expected);
            }
        }
        accounts.keySet().stream().filter(id -> !seen.contains(id))
                .forEach(id -> out.add(id.stream() + ": missing from the query table (the store has " + accounts.get(id).version() + " events)"));
        return out;
    }
}
