package io.appendsfeed.samples.todo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ETagsTest {

    @Test
    void etag_is_the_quoted_version_and_parses_back() {
        assertThat(ETags.of(3)).isEqualTo("\"3\"");
        assertThat(ETags.parseIfMatch(" \"3\" ").version()).isEqualTo(OptionalLong.of(3));
    }

    @Test
    void star_matches_any_version_and_absent_header_is_null() {
        assertThat(ETags.parseIfMatch("*").version()).isEmpty();
        assertThat(ETags.parseIfMatch(null)).isNull();
    }

    @Test
    void weak_unquoted_and_foreign_etags_are_refused_with_a_reason() {
        assertThatThrownBy(() -> ETags.parseIfMatch("W/\"3\"")).hasMessageContaining("strong");
        assertThatThrownBy(() -> ETags.parseIfMatch("3")).hasMessageContaining("quoted");
        assertThatThrownBy(() -> ETags.parseIfMatch("\"abc\"")).hasMessageContaining("not an ETag this service gave out");
        assertThatThrownBy(() -> ETags.parseIfMatch("\"0\"")).hasMessageContaining("start at");
    }
}
