package io.appendsfeed.indexer.internal;

import io.appendsfeed.model.feed.EpochEvent;
import io.appendsfeed.model.feed.EpochId;
import io.appendsfeed.model.feed.FeedCodec;
import io.appendsfeed.model.feed.FeedStreams;
import io.appendsfeed.model.feed.PartitionId;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoredEvent;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Reads and appends epoch streams in the index table. */
public final class DynamoEpochStore {

    private final StoreClient index;
    private final Clock clock;

    public DynamoEpochStore(StoreClient index, Clock clock) {
        this.index = index;
        this.clock = clock;
    }

    /** The whole epoch, folded. Eventually consistent: a stale read shows up as a conflict on the next write. */
    public EpochState load(PartitionId partition, EpochId epoch) {
        return catchUp(partition, EpochState.empty(epoch), false);
    }

    /** {@code state} plus the epoch events written after it. */
    public EpochState catchUp(PartitionId partition, EpochState state, boolean consistent) {
        Read read = Read.forward(state.version());
        try (Stream<StoredEvent> events = index.read(FeedStreams.epoch(partition, state.epoch()), consistent ? read.strongly() : read)) {
            EpochState[] s = {state};
            events.forEach(e -> s[0] = evolve(s[0], e));
            return s[0];
        }
    }

    /**
     * When the epoch was closed, from its last event (one query of its last two items: the Tip, which
     * holds no events in an epoch we wrote, and the last calf); empty while it is open or does not exist.
     */
    public Optional<Instant> closedAt(PartitionId partition, EpochId epoch) {
        List<StoredEvent> last = index.readAll(FeedStreams.epoch(partition, epoch), Read.backward().limit(1));
        return last.stream().filter(e -> EpochEvent.CLOSED.equals(e.type())).map(StoredEvent::timestamp).findFirst();
    }

    /**
     * Appends {@code events} if the epoch is still at {@code state.version()}.
     *
     * @return the state after the write, or empty on a conflict (another writer got there first)
     * @throws RuntimeException from DynamoDB (after the SDK's retries): the write may or may not have happened
     */
    public Optional<EpochState> append(PartitionId partition, EpochState state, List<EpochEvent> events) {
        return append(partition, state, events, true);
    }

    /** @param moveTip false to leave the epoch's Tip behind (see {@link StoreClient#appendAsCalf(io.appendsfeed.model.StreamName, long, List, boolean)}) */
    public Optional<EpochState> append(PartitionId partition, EpochState state, List<EpochEvent> events, boolean moveTip) {
        Instant now = clock.instant();
        List<EventData> data = new ArrayList<>(events.size());
        for (EpochEvent e : events) {
            data.add(EventData.of(e.type(), FeedCodec.encode(e)).withTimestamp(now));
        }
        AppendResult r = index.appendAsCalf(FeedStreams.epoch(partition, state.epoch()), state.version(), data, moveTip);
        if (r instanceof AppendResult.Conflict) {
            return Optional.empty();
        }
        EpochState s = state;
        for (int k = 0; k < events.size(); k++) {
            s = s.evolve(events.get(k), data.get(k).data().length, now);
        }
        return Optional.of(s);
    }

    /** Since when this writer has left the epoch's Tip behind its calves; empty when it has not. */
    public Optional<Instant> tipBehindSince(PartitionId partition, EpochId epoch) {
        return index.tipBehindSince(FeedStreams.epoch(partition, epoch));
    }

    /** Brings the epoch's Tip up to the calves this writer wrote, when it left it behind (one write; none otherwise). */
    public void moveTip(PartitionId partition, EpochId epoch) {
        index.moveTip(FeedStreams.epoch(partition, epoch));
    }

    private static EpochState evolve(EpochState s, StoredEvent e) {
        if (e.index() != s.version()) {
            throw new IllegalStateException("epoch " + e.stream() + " read event " + e.index() + " where " + s.version() + " was next");
        }
        EpochEvent event = FeedCodec.decodeEpochEvent(e.type(), e.data());
        return s.evolve(event, e.data() == null ? 0 : e.data().length, e.timestamp());
    }
}
