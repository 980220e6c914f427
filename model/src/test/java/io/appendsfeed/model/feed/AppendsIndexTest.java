package io.appendsfeed.model.feed;

import io.appendsfeed.model.Decider;
import io.appendsfeed.model.feed.AppendsIndex.IndexEvent;
import io.appendsfeed.model.feed.AppendsIndex.IndexState;
import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.store.StoredUnfold;
import io.appendsfeed.model.store.Tip;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The snapshot rule of {@code $AppendsIndex-0}, which the indexer and the reader used to apply
 * differently: the indexer trusted a snapshot only at the Tip's version and otherwise folded every
 * event from 0; the reader folded the last snapshot, wherever it stood, with the events after it.
 */
class AppendsIndexTest {

    private static final PartitionId P0 = PartitionId.of(0);
    private static final PartitionId P1 = PartitionId.of(1);

    static StoredEvent started(long index, PartitionId p, int epoch) {
        IndexEvent e = new IndexEvent.Started(p, EpochId.of(epoch));
        return new StoredEvent(AppendsIndex.STREAM, index, null, e.type(), AppendsIndex.encode(e), null, null, null);
    }

    static StoredUnfold snapshot(long index, Map<PartitionId, EpochId> active) {
        IndexEvent e = new IndexEvent.Snapshotted(active);
        return new StoredUnfold(index, null, e.type(), AppendsIndex.encode(e), null);
    }

    static Tip tip(long version, List<StoredUnfold> unfolds) {
        return new Tip(AppendsIndex.STREAM, version, "etag", List.of(), unfolds, 0);
    }

    /** The stream's events from an index on, recording where each read started. */
    static final class Events {
        final List<StoredEvent> all;
        final List<Long> readsFrom = new ArrayList<>();

        Events(StoredEvent... all) {
            this.all = List.of(all);
        }

        List<StoredEvent> from(long from) {
            readsFrom.add(from);
            return all.stream().filter(e -> e.index() >= from).toList();
        }
    }

    @Test
    void a_snapshot_at_the_tips_version_is_the_whole_state_and_nothing_else_is_read() {
        Events events = new Events(started(0, P0, 0), started(1, P1, 0), started(2, P0, 1));
        Decider.Loaded<IndexState> l = Decider.fold(AppendsIndex.CATEGORY, tip(3, List.of(snapshot(3, Map.of(P0, EpochId.of(1), P1, EpochId.ZERO)))), events::from);
        assertThat(l.state().active()).containsExactly(Map.entry(P0, EpochId.of(1)), Map.entry(P1, EpochId.ZERO));
        assertThat(l.version()).isEqualTo(3);
        assertThat(events.readsFrom).isEmpty();
    }

    @Test
    void a_snapshot_behind_the_tip_stands_for_the_events_before_it_and_the_events_after_it_are_folded_on() {
        // the snapshot (at 2) names partition 1; what the events before it hold is not read: where the
        // indexer used to fold from 0 (seeing one partition), both now see two, and epoch 1 of partition 0
        Events events = new Events(started(0, P0, 0), started(1, P0, 0), started(2, P0, 1));
        Decider.Loaded<IndexState> l = Decider.fold(AppendsIndex.CATEGORY, tip(3, List.of(snapshot(2, Map.of(P0, EpochId.ZERO, P1, EpochId.ZERO)))), events::from);
        assertThat(l.state().partitions()).isEqualTo(2);
        assertThat(l.state().activeEpoch(P0)).isEqualTo(EpochId.of(1));
        assertThat(l.version()).isEqualTo(3);
        assertThat(events.readsFrom).containsExactly(2L);
    }

    @Test
    void a_snapshot_claiming_an_index_past_the_tip_stands_for_nothing_and_every_event_is_folded() {
        // the reader used to trust it (and see epoch 5, which no Started names)
        Events events = new Events(started(0, P0, 0), started(1, P0, 1));
        Decider.Loaded<IndexState> l = Decider.fold(AppendsIndex.CATEGORY, tip(2, List.of(snapshot(9, Map.of(P0, EpochId.of(5))))), events::from);
        assertThat(l.state().active()).containsExactly(Map.entry(P0, EpochId.of(1)));
        assertThat(events.readsFrom).containsExactly(0L);
    }

    @Test
    void of_several_snapshots_the_latest_not_past_the_tip_counts() {
        Events events = new Events(started(0, P0, 0), started(1, P0, 1), started(2, P0, 2));
        Decider.Loaded<IndexState> l = Decider.fold(AppendsIndex.CATEGORY, tip(3, List.of(snapshot(2, Map.of(P0, EpochId.of(1))), snapshot(1, Map.of(P0, EpochId.ZERO)))),
                events::from);
        assertThat(l.state().activeEpoch(P0)).isEqualTo(EpochId.of(2));
        assertThat(events.readsFrom).containsExactly(2L);
    }

    @Test
    void without_a_snapshot_every_event_is_folded_and_events_the_tip_holds_are_not_read_again() {
        Events events = new Events(started(0, P0, 0), started(1, P1, 0));
        assertThat(Decider.fold(AppendsIndex.CATEGORY, tip(2, List.of()), events::from).state().partitions()).isEqualTo(2);
        assertThat(events.readsFrom).containsExactly(0L);

        Events none = new Events();
        Tip holding = new Tip(AppendsIndex.STREAM, 2, "etag", List.of(started(0, P0, 0), started(1, P1, 0)), List.of(), 0);
        assertThat(Decider.fold(AppendsIndex.CATEGORY, holding, none::from).state().partitions()).isEqualTo(2);
        assertThat(none.readsFrom).isEmpty();
    }
}
