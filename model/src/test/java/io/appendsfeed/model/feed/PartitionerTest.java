package io.appendsfeed.model.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.model.StreamName;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class PartitionerTest {

    @Test
    void routes_by_unsigned_crc32_of_the_utf8_name() {
        // expected values computed independently with zlib.crc32 (Python): crc mod partitions
        assertThat(Partitioner.route(StreamName.parse("Account-42"), 7)).isEqualTo(PartitionId.of(241055628 % 7));
        assertThat(Partitioner.route(StreamName.parse("Todo-1"), 7)).isEqualTo(PartitionId.of((int) (3146038594L % 7)));
        assertThat(Partitioner.route(StreamName.parse("Todo-1"), 3)).isEqualTo(PartitionId.of((int) (3146038594L % 3)));
        assertThat(Partitioner.route(StreamName.parse("été-1"), 16)).isEqualTo(PartitionId.of((int) (2440896915L % 16)));
    }

    @Test
    void one_partition_takes_everything() {
        assertThat(Partitioner.route(StreamName.parse("Todo-1"), 1)).isEqualTo(PartitionId.ZERO);
    }

    @Property
    void partition_is_in_range_and_stable(@ForAll @StringLength(min = 1, max = 30) String id, @ForAll @IntRange(min = 1, max = 64) int partitions) {
        String safe = id.codePoints().filter(cp -> !Character.isISOControl(cp) && !Character.isSurrogate((char) cp))
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        StreamName s = StreamName.of("Cat", safe.isEmpty() ? "x" : safe);
        PartitionId p = Partitioner.route(s, partitions);
        assertThat(p.value()).isBetween(0, partitions - 1);
        assertThat(Partitioner.route(StreamName.parse(s.value()), partitions)).isEqualTo(p);
    }

    @Test
    void partitions_must_be_positive() {
        assertThatThrownBy(() -> Partitioner.route(StreamName.parse("A-1"), 0)).hasMessageContaining("partitions must be >= 1");
    }
}
