package io.appendsfeed.reader.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class FairShareTest {

    @Property
    void shares_add_up_to_the_partitions_and_differ_by_at_most_one(@ForAll @IntRange(min = 0, max = 300) int partitions,
            @ForAll @IntRange(min = 1, max = 25) int instances, @ForAll long seed) {
        List<String> live = new ArrayList<>();
        for (int k = 0; k < instances; k++) {
            live.add("reader-" + Long.toHexString(seed + k * 7919L));
        }
        List<String> shuffled = new ArrayList<>(live);
        Collections.shuffle(shuffled, new Random(seed));
        List<Integer> shares = live.stream().map(self -> LeaseKeeper.fairShare(partitions, shuffled, self)).toList();
        int distinct = (int) live.stream().distinct().count();
        assertThat(live.stream().distinct().mapToInt(self -> LeaseKeeper.fairShare(partitions, shuffled, self)).sum())
                .as("every partition has exactly one instance meant to hold it").isEqualTo(partitions);
        assertThat(shares).allSatisfy(s -> assertThat(s).isBetween(partitions / distinct, (partitions + distinct - 1) / distinct));
    }

    @Test
    void a_late_joiner_missing_from_the_list_counts_itself() {
        assertThat(LeaseKeeper.fairShare(4, List.of("a", "b", "c"), "d")).isEqualTo(1);
        assertThat(LeaseKeeper.fairShare(4, List.of("a", "b", "c"), "a")).isEqualTo(2);
        assertThat(LeaseKeeper.fairShare(4, List.of("a", "b", "c"), "c")).isEqualTo(1);
        assertThat(LeaseKeeper.fairShare(4, List.of(), "solo")).isEqualTo(4);
    }
}
