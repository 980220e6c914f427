package io.appendsfeed.model.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class CheckpointTest {

    @Property
    void epoch_and_offset_round_trip(@ForAll @IntRange(min = 0, max = Integer.MAX_VALUE) int epoch,
                                     @ForAll @LongRange(min = 0, max = 999_999) long offset) {
        Checkpoint c = Checkpoint.of(epoch, offset);
        assertThat(c.value()).isEqualTo(epoch * 1_000_000L + offset);
        assertThat(c.epoch()).isEqualTo(EpochId.of(epoch));
        assertThat(c.offset()).isEqualTo(offset);
        assertThat(new Checkpoint(c.value())).isEqualTo(c);
    }

    @Property
    void display_and_raw_forms_parse_back(@ForAll @IntRange(min = 0, max = 100_000) int epoch,
                                          @ForAll @LongRange(min = 0, max = 999_999) long offset) {
        Checkpoint c = Checkpoint.of(epoch, offset);
        assertThat(Checkpoint.parse(c.display())).isEqualTo(c);
        assertThat(Checkpoint.parse(Long.toString(c.value()))).isEqualTo(c);
    }

    @Property
    void order_of_checkpoints_is_order_of_epoch_then_offset(@ForAll @IntRange(max = 1000) int e1, @ForAll @LongRange(max = 999_999) long o1,
                                                           @ForAll @IntRange(max = 1000) int e2, @ForAll @LongRange(max = 999_999) long o2) {
        int byParts = e1 != e2 ? Integer.compare(e1, e2) : Long.compare(o1, o2);
        assertThat(Integer.signum(Checkpoint.of(e1, o1).compareTo(Checkpoint.of(e2, o2)))).isEqualTo(Integer.signum(byParts));
    }

    @Test
    void the_encoding_constant_is_one_million() {
        assertThat(Checkpoint.EPOCH_SIZE).isEqualTo(1_000_000L);
        assertThat(Checkpoint.of(1, 42).value()).isEqualTo(1_000_042L);
        assertThat(Checkpoint.parse("1000042").display()).isEqualTo("1/42");
    }

    @Test
    void offset_must_stay_inside_an_epoch() {
        assertThat(Checkpoint.of(0, 999_999).offset()).isEqualTo(999_999);
        assertThatThrownBy(() -> Checkpoint.of(0, 1_000_000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("offset must be in [0, 1000000)");
        assertThatThrownBy(() -> Checkpoint.of(0, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Checkpoint(-5)).hasMessageContaining(">= 0");
        assertThatThrownBy(() -> Checkpoint.of(3, 999_999).plus(1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void next_epoch_starts_at_offset_zero() {
        assertThat(Checkpoint.of(3, 17).nextEpoch()).isEqualTo(Checkpoint.of(4, 0));
        assertThat(Checkpoint.of(3, 17).plus(5)).isEqualTo(Checkpoint.of(3, 22));
    }

    @Test
    void malformed_text_names_the_accepted_forms() {
        assertThatThrownBy(() -> Checkpoint.parse("one/two")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("EPOCH/OFFSET");
        assertThatThrownBy(() -> Checkpoint.parse("")).hasMessageContaining("raw int64");
        assertThatThrownBy(() -> Checkpoint.parse("1/1000000")).hasMessageContaining("offset must be in");
    }
}
