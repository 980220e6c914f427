package io.appendsfeed.indexer.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.indexer.backfill.internal.StreamAssembler;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.feed.Span;
import io.appendsfeed.model.store.StoreItem;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamAssemblerTest {

    private static final StreamName S = StreamName.parse("Account-1");

    private static StoreItem.Calf calf(long first, String... types) {
        return new StoreItem.Calf(S, first, List.of(types));
    }

    private static StoreItem.Tip tip(long first, String... types) {
        return new StoreItem.Tip(S, first + types.length, List.of(types), 0);
    }

    @Test
    void a_stream_seen_tip_first_and_calves_out_of_order_comes_out_whole_in_index_order() {
        StreamAssembler a = new StreamAssembler();
        assertThat(a.add(tip(5, "F", "G"))).isNull();
        assertThat(a.add(calf(2, "C", "D", "E"))).isNull();
        List<Span> spans = a.add(calf(0, "A", "B"));
        assertThat(spans).containsExactly(Span.of("Account-1", 0, "A", "B"), Span.of("Account-1", 2, "C", "D", "E"),
                Span.of("Account-1", 5, "F", "G"));
        assertThat(a.incomplete()).isEmpty();
    }

    @Test
    void a_calf_and_the_old_tip_it_was_cut_from_are_trimmed_to_one_copy() {
        StreamAssembler a = new StreamAssembler();
        assertThat(a.add(calf(0, "A", "B"))).isNull();
        // scanned before a concurrent calving: the old Tip holds what the new calf holds, plus nothing newer
        List<Span> spans = a.add(tip(0, "A", "B"));
        assertThat(spans).containsExactly(Span.of("Account-1", 0, "A", "B"));
        assertThat(a.add(tip(2, "C"))).as("an item of a stream already assembled").isNull();
    }

    @Test
    void a_stream_with_a_hole_stays_open_to_be_read_again() {
        StreamAssembler a = new StreamAssembler();
        a.add(calf(0, "A"));
        assertThat(a.add(tip(3, "D"))).isNull();
        assertThat(a.incomplete()).containsExactly(S);
    }

    @Test
    void a_stream_with_an_unreadable_item_is_left_out_and_named() {
        StreamAssembler a = new StreamAssembler();
        a.add(calf(0, "A"));
        a.reject(new StoreItem.Malformed("p=Account-1, i=1", S, "attribute c is missing"));
        assertThat(a.add(tip(1, "B"))).isNull();
        assertThat(a.incomplete()).isEmpty();
        assertThat(a.rejected()).containsEntry("p=Account-1, i=1", "attribute c is missing");
    }
}
