package io.appendsfeed.model.feed;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.store.StoredUnfold;
import io.appendsfeed.model.store.Tip;
import io.appendsfeed.model.store.Unfold;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * {@code $AppendsIndex-0}, in one place: its stream name ({@link #STREAM}), its events ({@link IndexEvent},
 * encoded by {@link FeedCodec}), its fold ({@link IndexState}), how it is loaded, snapshot rule
 * included, and how it is written. The indexer and the reader both load it here (DESIGN.md, "The index
 * table"); the indexer writes it here.
 *
 * <p><b>Writing.</b> The index is created with a {@code Started} at epoch 0 for every partition (which
 * records the partition count), then gets a {@code Started} each time an epoch closes. Every append
 * carries a {@code Snapshotted} unfold at the new version, so that loading it is one read of the Tip.
 *
 * <p><b>The snapshot rule.</b> A {@code Snapshotted} unfold in the Tip at index {@code u.i} stands for the
 * events before {@code u.i}: the state is that snapshot folded with the events from {@code u.i} up to the
 * Tip's version {@code n} (none in the usual case, {@code u.i = n}: every writer of the index refreshes
 * the snapshot with each append). The events before a snapshot are never read, as Equinox's loaders never
 * read past an origin. Of several snapshots, the latest not after {@code n} counts; one claiming an index
 * after {@code n} (no writer produces it) stands for nothing, and neither does a Tip without one: the
 * state is then the fold of every event from 0.
 */
public final class AppendsIndex {

    /** {@code $AppendsIndex-0}: the only index stream. */
    public static final StreamName STREAM = FeedStreams.INDEX;

    /**
     * The index as loaded.
     *
     * @param version the stream's version ({@code n} of its Tip; 0 when it does not exist): what a write
     *                of the next event expects
     */
    public record Loaded(IndexState state, long version) {
        public Loaded {
            Objects.requireNonNull(state, "state");
        }
    }

    private AppendsIndex() {}

    /**
     * Loads the index: one read of the Tip, plus a read of the events after its snapshot when there are any
     * outside the Tip. A missing index is {@link IndexState#EMPTY} at version 0.
     *
     * @param consistent strongly consistent reads (what a writer needs); eventually consistent otherwise
     * @throws FeedFormatException when the index holds an event type this version does not know (written
     *         by a newer format)
     * @throws RuntimeException from DynamoDB, after the SDK's retries
     */
    public static Loaded load(StoreClient index, boolean consistent) {
        Optional<Tip> tip = index.readTip(STREAM, consistent);
        if (tip.isEmpty()) {
            return new Loaded(IndexState.EMPTY, 0);
        }
        return fold(tip.get(), from -> index.readAll(STREAM, consistent ? Read.forward(from).strongly() : Read.forward(from)));
    }

    /** The index as a reader sees it, eventually consistent: one partition at epoch 0 when there is none yet. */
    public static IndexState read(StoreClient index) {
        return load(index, false).state();
    }

    /**
     * The snapshot rule, pure: the state a Tip stands for.
     *
     * @param eventsFrom the stream's events from an index on, oldest first; asked only when the Tip does not
     *                   hold them itself
     */
    public static Loaded fold(Tip tip, LongFunction<List<StoredEvent>> eventsFrom) {
        StoredUnfold snapshot = null;
        for (StoredUnfold u : tip.unfolds()) {
            if (IndexEvent.SNAPSHOTTED.equals(u.type()) && u.index() <= tip.version()
                    && (snapshot == null || u.index() >= snapshot.index())) {
                snapshot = u;
            }
        }
        IndexState state = snapshot == null ? IndexState.EMPTY
                : IndexState.EMPTY.evolve(FeedCodec.decodeIndexEvent(snapshot.type(), snapshot.data()));
        long from = snapshot == null ? 0 : snapshot.index();
        if (from < tip.version()) {
            List<StoredEvent> inTip = tip.events();
            List<StoredEvent> events = !inTip.isEmpty() && inTip.get(0).index() <= from ? inTip : eventsFrom.apply(from);
            for (StoredEvent e : events) {
                if (e.index() >= from) {
                    state = state.evolve(FeedCodec.decodeIndexEvent(e.type(), e.data()));
                }
            }
        }
        return new Loaded(state, tip.version());
    }

    /**
     * Creates the index for {@code partitions} unless it exists; returns what is there either way
     * (strongly consistent).
     *
     * @throws RuntimeException from DynamoDB, after the SDK's retries
     */
    public static Loaded create(StoreClient index, int partitions) {
        List<IndexEvent> started = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            started.add(new IndexEvent.Started(PartitionId.of(p), EpochId.ZERO));
        }
        // a conflict means another indexer created it first: what it recorded is what counts
        append(index, Expected.noStream(), IndexState.fold(started), started);
        return load(index, true);
    }

    /**
     * Records that {@code epoch} is the active epoch of {@code partition}, unless the index already
     * says so or names a later one. Idempotent; retries on conflicts.
     *
     * @return the index's state afterwards
     * @throws RuntimeException from DynamoDB, after the SDK's retries
     */
    public static IndexState start(StoreClient index, PartitionId partition, EpochId epoch) {
        return start(index, null, partition, epoch).state();
    }

    /**
     * As {@link #start(StoreClient, PartitionId, EpochId)}, first trying the append at the index as
     * the caller last knew it: no read when that is still current (the usual case: an indexer is the
     * one that moves its partitions on), one load and another try when it is not.
     *
     * @param known the index as last loaded or written by the caller; null to load it first
     * @return the index afterwards, with its version
     */
    public static Loaded start(StoreClient index, Loaded known, PartitionId partition, EpochId epoch) {
        Loaded last = known;
        while (true) {
            Loaded l = last != null ? last : load(index, true);
            last = null;
            if (l.state().isCreated() && l.state().activeEpoch(partition).compareTo(epoch) >= 0) {
                return l;
            }
            IndexEvent.Started started = new IndexEvent.Started(partition, epoch);
            IndexState next = l.state().evolve(started);
            if (append(index, Expected.version(l.version()), next, List.of(started))) {
                return new Loaded(next, l.version() + 1);
            }
        }
    }

    private static boolean append(StoreClient index, Expected expected, IndexState after, List<IndexEvent> events) {
        List<EventData> data = events.stream().map(e -> EventData.of(e.type(), FeedCodec.encode(e))).toList();
        IndexEvent.Snapshotted snapshot = after.snapshot();
        Unfold unfold = new Unfold(snapshot.type(), FeedCodec.encode(snapshot), null);
        return index.append(STREAM, expected, data, List.of(unfold)) instanceof AppendResult.Written;
    }
}
