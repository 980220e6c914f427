package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.FeedCodec;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.IndexEvent;
import io.appendsfeed.model.feed.IndexState;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.store.StoredUnfold;
import io.appendsfeed.model.store.Tip;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads {@code $AppendsIndex-0}: the Tip's {@code Snapshotted} unfold when it stands for the whole
 * stream, else the snapshot plus the events after it, else all events. A missing index is one
 * partition at epoch 0.
 */
public final class FeedIndex {

    private final StoreClient index;

    public FeedIndex(StoreClient index) {
        this.index = index;
    }

    /**
     * @throws io.appendsfeed.model.feed.FeedFormatException when the index holds an event type this
     *         version does not know (written by a newer format)
     */
    public IndexState read() {
        Optional<Tip> tip = index.readTip(FeedStreams.INDEX, false);
        if (tip.isEmpty()) {
            return IndexState.EMPTY;
        }
        IndexState state = IndexState.EMPTY;
        long from = 0;
        for (StoredUnfold u : tip.get().unfolds()) {
            if (u.type().equals(IndexEvent.SNAPSHOTTED)) {
                state = state.evolve(FeedCodec.decodeIndexEvent(u.type(), u.data()));
                from = u.index();
            }
        }
        if (from >= tip.get().version()) {
            return state;
        }
        List<IndexEvent> events = new ArrayList<>();
        for (StoredEvent e : index.readAll(FeedStreams.INDEX, Read.forward(from))) {
            events.add(FeedCodec.decodeIndexEvent(e.type(), e.data()));
        }
        return IndexState.fold(state, events);
    }
}
