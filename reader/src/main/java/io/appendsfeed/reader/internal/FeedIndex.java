package io.appendsfeed.reader.internal;

import io.appendsfeed.model.feed.AppendsIndex;
import io.appendsfeed.model.feed.IndexState;
import io.appendsfeed.model.store.StoreClient;

/**
 * Reads {@code $AppendsIndex-0} for the reader, eventually consistent, by the model's one loader and
 * snapshot rule ({@link AppendsIndex#load}). A missing index is one partition at epoch 0.
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
        return AppendsIndex.load(index, false).state();
    }
}
