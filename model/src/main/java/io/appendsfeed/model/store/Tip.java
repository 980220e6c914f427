package io.appendsfeed.model.store;

import io.appendsfeed.model.StreamName;
import java.util.List;

/**
 * The Tip item of a stream.
 *
 * @param version the stream's version: the index the next event will get ({@code n})
 * @param etag the token of the last write, for {@link Expected.Etag}
 * @param events the events still in the Tip (the newest ones)
 * @param unfolds the snapshots written with the last write
 * @param calfBytes bytes held in calves ({@code b})
 */
public record Tip(StreamName stream, long version, String etag, List<StoredEvent> events,
                  List<StoredUnfold> unfolds, long calfBytes) {}
