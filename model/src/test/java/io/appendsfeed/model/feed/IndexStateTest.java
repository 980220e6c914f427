package io.appendsfeed.model.feed;

import io.appendsfeed.model.feed.AppendsIndex.IndexEvent;
import io.appendsfeed.model.feed.AppendsIndex.IndexState;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IndexStateTest {

    @Test
    void missing_index_means_one_partition_at_epoch_zero() {
        assertThat(IndexState.EMPTY.isCreated()).isFalse();
        assertThat(IndexState.EMPTY.partitions()).isEqualTo(1);
        assertThat(IndexState.EMPTY.activeEpoch(PartitionId.of(3))).isEqualTo(EpochId.ZERO);
    }

    @Test
    void creation_records_the_partition_count() {
        var s = IndexState.fold(List.of(new IndexEvent.Started(PartitionId.of(0), EpochId.ZERO),
                new IndexEvent.Started(PartitionId.of(1), EpochId.ZERO), new IndexEvent.Started(PartitionId.of(2), EpochId.ZERO)));
        assertThat(s.partitions()).isEqualTo(3);
        assertThat(s.isCreated()).isTrue();
    }

    @Test
    void epochs_only_move_forwards() {
        var s = IndexState.fold(List.of(new IndexEvent.Started(PartitionId.ZERO, EpochId.of(2)),
                new IndexEvent.Started(PartitionId.ZERO, EpochId.of(1)),
                new IndexEvent.Snapshotted(Map.of(PartitionId.ZERO, EpochId.of(0), PartitionId.of(1), EpochId.of(4)))));
        assertThat(s.activeEpoch(PartitionId.ZERO)).isEqualTo(EpochId.of(2));
        assertThat(s.activeEpoch(PartitionId.of(1))).isEqualTo(EpochId.of(4));
    }

    @Test
    void snapshot_folds_back_to_the_same_state() {
        var s = IndexState.fold(List.of(new IndexEvent.Started(PartitionId.of(1), EpochId.of(9))));
        assertThat(IndexState.fold(List.of(new IndexEvent.Snapshotted(s.active())))).isEqualTo(s);
        assertThat(s.activeEpoch(PartitionId.ZERO)).isEqualTo(EpochId.ZERO);
    }
}
