package io.appendsfeed.model.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class FeedNotificationTest {

    @Test
    void body_is_the_pinned_json() {
        assertThat(FeedNotification.of(3, 1_000_042).toJson()).isEqualTo("{\"partition\":3,\"position\":1000042}");
    }

    @Property
    void body_and_attributes_read_back(@ForAll @IntRange(min = 0, max = Integer.MAX_VALUE) int partition,
                                       @ForAll @LongRange(min = 0, max = 2_147_483_647_999_999L) long position) {
        FeedNotification n = FeedNotification.of(partition, position);
        assertThat(FeedNotification.parseJson(n.toJson())).isEqualTo(n);
        assertThat(FeedNotification.parseAttributes(Integer.toString(partition), Long.toString(position))).isEqualTo(n);
    }

    @Test
    void other_fields_are_ignored() {
        assertThat(FeedNotification.parseJson("{\"position\":7,\"v\":2,\"partition\":1}")).isEqualTo(FeedNotification.of(1, 7));
    }

    @Test
    void bodies_that_are_not_notifications_are_refused_saying_what_is_expected() {
        assertThatThrownBy(() -> FeedNotification.parseJson("1000042")).hasMessageContaining("not a JSON object");
        assertThatThrownBy(() -> FeedNotification.parseJson("{\"partition\":0")).hasMessageContaining("not JSON");
        assertThatThrownBy(() -> FeedNotification.parseJson("{\"partition\":\"0\",\"position\":5}"))
                .hasMessageContaining("whole numbers 'partition' and 'position'");
        assertThatThrownBy(() -> FeedNotification.parseJson("{\"partition\":0,\"position\":-5}"))
                .hasMessageContaining("checkpoint must be >= 0");
        assertThatThrownBy(() -> FeedNotification.parseJson(null)).hasMessageContaining("(none)");
        assertThatThrownBy(() -> FeedNotification.parseAttributes("0", "12x")).hasMessageContaining("Position is '12x'");
        assertThatThrownBy(() -> FeedNotification.parseAttributes(null, "12")).hasMessageContaining("Partition is missing");
        assertThatThrownBy(() -> FeedNotification.parseAttributes("3000000000", "12")).hasMessageContaining("out of range");
    }
}
