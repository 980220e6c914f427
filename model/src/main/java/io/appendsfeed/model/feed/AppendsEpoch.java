package io.appendsfeed.model.feed;

import io.appendsfeed.model.StreamName;
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

/**
 * {@code $AppendsEpoch-<partition>_<epoch>}, in one place (DESIGN.md, "The index table" and "Writing an
 * epoch"): its stream name ({@link #stream}), its events ({@link EpochEvent}, encoded by {@link FeedCodec}),
 * its fold ({@link EpochState}), the pure decision of the next write ({@link EpochDecider}, deciding an
 * {@link EpochWrite}) within its limits ({@link EpochLimits}), and here the reading and writing of an epoch
 * over a {@link StoreClient} of the index table. The indexer writes epochs through this class; the reader
 * and the {@code feed} CLI read them with {@link #decode} and {@link #after}.
 *
 * <p>Invariants of the format: an epoch's events are {@code Ingested} ones, then at most one {@code Closed},
 * which is its last; offsets (event indexes) run from 0 without holes and stay below
 * {@link Checkpoint#EPOCH_SIZE}, so that a checkpoint {@code epoch × 1,000,000 + offset} names every
 * event; a closed epoch never changes, and the partition continues in the next epoch.
 */
public final class AppendsEpoch {

    private final StoreClient index;
    private final Clock clock;

    /**
     * @param index the index table's client
     * @param clock the time written on the events ({@code Closed}'s is when the epoch closed)
     */
    public AppendsEpoch(StoreClient index, Clock clock) {
        this.index = index;
        this.clock = clock;
    }

    /** {@code $AppendsEpoch-<partition>_<epoch>}. */
    public static StreamName stream(PartitionId partition, EpochId epoch) {
        return FeedStreams.epoch(partition, epoch);
    }

    /**
     * An epoch event as stored, decoded.
     *
     * @throws FeedFormatException when its type or body is not one this version reads
     */
    public static EpochEvent decode(StoredEvent e) {
        return FeedCodec.decodeEpochEvent(e.type(), e.data());
    }

    /** Where a walk of the feed continues after {@code event}, read at {@code position}: {@code Closed} leads to the next epoch. */
    public static Checkpoint after(Checkpoint position, EpochEvent event) {
        return event instanceof EpochEvent.Closed ? position.nextEpoch() : position.plus(1);
    }

    /**
     * The whole epoch, folded. Eventually consistent: a stale read shows up as a conflict on the next write.
     *
     * @throws FeedFormatException at an event this version cannot read
     * @throws IllegalStateException when the epoch's events have a hole (a lagging replica, or a broken store)
     */
    public EpochState load(PartitionId partition, EpochId epoch) {
        return catchUp(partition, EpochState.empty(epoch), false);
    }

    /** {@code state} plus the epoch events written after it. */
    public EpochState catchUp(PartitionId partition, EpochState state, boolean consistent) {
        return fold(partition, state, consistent, null); // a cold load's events are not kept, only their fold
    }

    /**
     * Where an epoch stands beyond a state its writer had: the state now, and the events other writers
     * appended since, in order (for a writer to tell whether they touch what it was about to write).
     *
     * @param state the state after {@code events}
     * @param events the epoch events after the state the writer had, oldest first
     */
    public record Since(EpochState state, List<EpochEvent> events) {
        public Since {
            events = List.copyOf(events);
        }
    }

    /** {@code state} plus the epoch events written after it, and those events: one query from its version. */
    public Since follow(PartitionId partition, EpochState state, boolean consistent) {
        List<EpochEvent> seen = new ArrayList<>();
        return new Since(fold(partition, state, consistent, seen), seen);
    }

    private EpochState fold(PartitionId partition, EpochState state, boolean consistent, List<EpochEvent> seen) {
        Read read = Read.forward(state.version());
        try (Stream<StoredEvent> events = index.read(stream(partition, state.epoch()), consistent ? read.strongly() : read)) {
            EpochState[] s = {state};
            events.forEach(e -> s[0] = evolve(s[0], e, seen));
            return s[0];
        }
    }

    /**
     * When the epoch was closed, from its last event (one query of its last two items: the Tip, which
     * holds no events in an epoch we wrote, and the last calf); empty while it is open or does not exist.
     */
    public Optional<Instant> closedAt(PartitionId partition, EpochId epoch) {
        List<StoredEvent> last = index.readAll(stream(partition, epoch), Read.backward().limit(1));
        return last.stream().filter(e -> EpochEvent.CLOSED.equals(e.type())).map(StoredEvent::timestamp).findFirst();
    }

    /**
     * Appends {@code events} if the epoch is still at {@code state.version()}.
     *
     * @return the state after the write, or empty on a conflict (another writer got there first)
     * @throws RuntimeException from DynamoDB (after the SDK's retries): the write may or may not have happened
     */
    public Optional<EpochState> append(PartitionId partition, EpochState state, List<EpochEvent> events) {
        Appended r = append(partition, state, encode(events));
        return r.written() ? Optional.of(r.state()) : Optional.empty();
    }

    /**
     * Epoch events encoded for {@link #append(PartitionId, EpochState, Encoded)}: a writer that
     * loses a race and finds its decision still holds sends the same bytes again, not encoding them twice.
     */
    public record Encoded(List<EpochEvent> events, List<EventData> data, Instant at) {
        public Encoded {
            events = List.copyOf(events);
            data = List.copyOf(data);
        }
    }

    public Encoded encode(List<EpochEvent> events) {
        Instant now = clock.instant();
        List<EventData> data = new ArrayList<>(events.size());
        for (EpochEvent e : events) {
            data.add(EventData.of(e.type(), FeedCodec.encode(e)).withTimestamp(now));
        }
        return new Encoded(events, data, now);
    }

    /**
     * The outcome of an append.
     *
     * @param written whether the events were appended
     * @param state written: the state after them. Refused: the state the writer had, followed by the
     *              events of the writer that won ({@code others}), when the refusal showed them
     * @param others refused: the events another writer appended at the version this append wanted, as
     *               the refusal returned them (no read); empty when it did not, or when written
     */
    public record Appended(boolean written, EpochState state, List<EpochEvent> others) {
        public Appended {
            others = List.copyOf(others);
        }
    }

    /**
     * Appends {@code events} if the epoch is still at {@code state.version()}; on a conflict, follows the
     * writer that won as far as the refusal shows it (its item, returned by the refused write).
     *
     * @throws RuntimeException from DynamoDB (after the SDK's retries): the write may or may not have happened
     */
    public Appended append(PartitionId partition, EpochState state, Encoded events) {
        AppendResult r = index.appendAsCalf(stream(partition, state.epoch()), state.version(), events.data());
        if (r instanceof AppendResult.Conflict c) {
            List<EpochEvent> others = new ArrayList<>(c.found().size());
            EpochState s = state;
            try {
                for (StoredEvent e : c.found()) {
                    s = evolve(s, e, others);
                }
            } catch (RuntimeException unreadable) {
                return new Appended(false, state, List.of()); // read as usual, where a broken item is reported
            }
            return new Appended(false, s, others);
        }
        EpochState s = state;
        for (int k = 0; k < events.events().size(); k++) {
            s = s.evolve(events.events().get(k), events.data().get(k).data().length, events.at());
        }
        return new Appended(true, s, List.of());
    }

    /**
     * The state of an epoch this writer has just recorded as its partition's active one, without
     * reading it: empty, its Tip assumed absent. A write into an epoch another writer has begun
     * already conflicts on its first calf's key, and the writer catches up as after any conflict; so
     * an epoch's roll costs no read.
     */
    public EpochState begun(PartitionId partition, EpochId epoch) {
        index.assumeNoTip(stream(partition, epoch));
        return EpochState.empty(epoch);
    }

    /**
     * Brings the epoch's Tip up to {@code state} unless this writer knows it is there (one write; none
     * otherwise): Tip-first readers (equinox-js, Propulsion) and the notifier see the epoch only as far
     * as its Tip says. Every append moves the Tip; this covers an append whose Tip update failed, and a
     * load that found the Tip behind or absent (a writer that died between the calf and the Tip).
     */
    public void ensureTip(PartitionId partition, EpochState state) {
        if (state.version() > 0) {
            index.ensureTip(stream(partition, state.epoch()), state.version());
        }
    }

    /** @param seen where the decoded event goes too; null for none */
    private static EpochState evolve(EpochState s, StoredEvent e, List<EpochEvent> seen) {
        if (e.index() != s.version()) {
            throw new IllegalStateException("epoch " + e.stream() + " read event " + e.index() + " where " + s.version() + " was next");
        }
        EpochEvent event = decode(e);
        if (seen != null) {
            seen.add(event);
        }
        return s.evolve(event, e.data() == null ? 0 : e.data().length, e.timestamp());
    }
}
