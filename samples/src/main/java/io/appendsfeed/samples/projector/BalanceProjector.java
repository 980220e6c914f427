package io.appendsfeed.samples.projector;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.reader.StreamHandler.FeedEvent;
import io.appendsfeed.reader.StreamHandler.HandlerResult;
import io.appendsfeed.reader.StreamHandler;
import io.appendsfeed.samples.bank.AccountId;
import io.appendsfeed.samples.bank.AccountState;
import io.appendsfeed.samples.bank.Accounts;
import java.util.List;

/**
 * Keeps the {@link BalanceTable} up to date from the feed, telling the reader how far each row is. Idempotent: the
 * row's version counts the events it holds, so redelivered events are skipped, and events the row lacks before the
 * feed's are read from the store first: a row never skips an event.
 */
public final class BalanceProjector implements StreamHandler {

    private final BalanceTable table;
    private final StoreClient store;

    public BalanceProjector(BalanceTable table, StoreClient store) {
        this.table = table;
        this.store = store;
    }

    /**
     * @return the index of the next event the row needs
     * @throws IllegalStateException when the store holds fewer events than the feed says (retried, then parked)
     */
    @Override
    public HandlerResult handle(StreamName stream, List<FeedEvent> events) {
        AccountId id = AccountId.of(stream);
        BalanceRow row = table.get(id).orElse(null);
        AccountState state = row == null ? AccountState.INITIAL : row.state();
        long version = row == null ? 0 : row.version();
        long first = events.get(0).index();
        if (first > version) {
            List<StoredEvent> missing = store.readAll(stream, Read.forward(version).limit(first - version).strongly());
            if (missing.size() != first - version) {
                throw new IllegalStateException(stream + ": the feed has events from " + first + " but the store gave "
                        + missing.size() + " of the " + (first - version) + " events before them from " + version);
            }
            for (StoredEvent e : missing) {
                state = state.evolve(Accounts.CODEC.decode(e));
            }
            version = first;
        }
        for (FeedEvent e : events) {
            if (e.index() == version) {
                state = state.evolve(Accounts.CODEC.decode(stream, e.index(), e.type(), e.data()));
                version++;
            }
        }
        if ((row == null || version > row.version()) && !table.put(BalanceRow.of(id, state, version))) {
            // someone else wrote a newer row since the read (another instance, a rebuild): go by it
            return HandlerResult.reached(table.get(id).map(BalanceRow::version).orElse(version));
        }
        return HandlerResult.reached(version);
    }
}
