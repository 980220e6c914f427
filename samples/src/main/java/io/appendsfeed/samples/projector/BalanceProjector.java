package io.appendsfeed.samples.projector;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.samples.bank.AccountEvent;
import io.appendsfeed.samples.bank.AccountId;
import io.appendsfeed.samples.bank.AccountState;
import io.appendsfeed.samples.bank.Accounts;
import java.util.List;

/**
 * Keeps the {@link BalanceTable} up to date from the feed: folds each account's new events into
 * its row. Idempotent: the row remembers how many events it holds, so redelivered events are
 * skipped; and if the feed hands it events beyond what the row holds (the table was cleared, or
 * the reader started late), it reads the missing ones from the store first, never leaving a gap.
 */
public final class BalanceProjector {

    private final BalanceTable table;
    private final StoreClient store;

    public BalanceProjector(BalanceTable table, StoreClient store) {
        this.table = table;
        this.store = store;
    }

    /**
     * Folds one account stream's events (in order) into its row.
     *
     * @return the index of the next event the row needs
     * @throws IllegalStateException when the store holds fewer events than the feed says it has
     */
    public long handle(StreamName stream, List<StoredEvent> events) {
        AccountId id = AccountId.of(stream);
        BalanceRow row = table.get(id).orElse(null);
        AccountState state = row == null ? AccountState.INITIAL : row.state();
        long version = row == null ? 0 : row.version();
        if (events.isEmpty()) {
            return version;
        }
        long first = events.get(0).index();
        if (first > version) {
            List<StoredEvent> missing = store.readAll(stream, Read.forward(version).limit(first - version));
            if (missing.size() != first - version) {
                throw new IllegalStateException(stream + ": the feed has events from " + first + " but the store gave "
                        + missing.size() + " of the " + (first - version) + " events before them from " + version);
            }
            state = fold(state, missing);
            version = first;
        }
        for (StoredEvent e : events) {
            if (e.index() == version) {
                state = state.evolve(Accounts.CATEGORY.codec().decode(e));
                version++;
            }
        }
        if (row == null || version > row.version()) {
            table.put(BalanceRow.of(id, state, version));
        }
        return version;
    }

    private static AccountState fold(AccountState state, List<StoredEvent> events) {
        AccountState s = state;
        for (StoredEvent e : events) {
            AccountEvent event = Accounts.CATEGORY.codec().decode(e);
            s = s.evolve(event);
        }
        return s;
    }
}
