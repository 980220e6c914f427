package io.appendsfeed.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class StreamNameTest {

    @Test
    void splits_at_the_first_dash() {
        StreamName s = StreamName.parse("Account-42-b");
        assertThat(s.category()).isEqualTo("Account");
        assertThat(s.id()).isEqualTo("42-b");
        assertThat(StreamName.of("Todo", "x")).isEqualTo(StreamName.parse("Todo-x"));
    }

    @Test
    void dollar_names_are_reserved() {
        assertThat(StreamName.parse("$AppendsEpoch-0_0").isReserved()).isTrue();
        assertThat(StreamName.parse("Account-1").isReserved()).isFalse();
    }

    @Test
    void invalid_names_say_what_to_use_instead() {
        assertThatThrownBy(() -> StreamName.parse("")).hasMessageContaining("Category-Id");
        assertThatThrownBy(() -> StreamName.parse("Account")).hasMessageContaining("no '-'");
        assertThatThrownBy(() -> StreamName.parse("-1")).hasMessageContaining("category (before the first '-') is empty");
        assertThatThrownBy(() -> StreamName.parse("Account-")).hasMessageContaining("id (after the first '-') is empty");
        assertThatThrownBy(() -> StreamName.parse("A-b\u0000c")).hasMessageContaining("control character U+0000");
        assertThatThrownBy(() -> StreamName.parse("A-\uD800")).hasMessageContaining("unpaired surrogate");
    }

    @Test
    void names_are_limited_to_1_KiB_of_utf8() {
        String ok = "A-" + "x".repeat(1022);
        assertThat(StreamName.parse(ok).value()).hasSize(1024);
        // 'é' is two bytes in UTF-8: 2 + 2 * 512 = 1026 bytes, over the limit although 514 chars
        assertThatThrownBy(() -> StreamName.parse("A-" + "é".repeat(512)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1026 bytes of UTF-8");
    }

    @Test
    void odd_but_valid_characters_are_kept() {
        StreamName s = StreamName.of("Émoji", "😀 with space/slash#hash");
        assertThat(StreamName.parse(s.value())).isEqualTo(s);
        assertThat(s.id()).isEqualTo("😀 with space/slash#hash");
    }
}
