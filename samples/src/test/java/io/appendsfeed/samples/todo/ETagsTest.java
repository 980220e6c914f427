package io.appendsfeed.samples.todo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ETagsTest {

    @Test
    void etag_is_the_quoted_version_and_parses_back() {
        assertThat(TodoHttpServer.etag(3)).isEqualTo("\"3\"");
        assertThat(TodoHttpServer.parseIfMatch(" \"3\" ")).isEqualTo(OptionalLong.of(3));
    }

    @Test
    void star_matches_any_version_and_absent_header_is_null() {
        assertThat(TodoHttpServer.parseIfMatch("*")).isEmpty();
        assertThat(TodoHttpServer.parseIfMatch(null)).isNull();
    }

    @Test
    void weak_unquoted_and_foreign_etags_are_refused_with_a_reason() {
        for (String bad : new String[] {"W/\"3\"", "3", "\"abc\"", "\"0\"", "\"3\", \"4\""}) {
            assertThatThrownBy(() -> TodoHttpServer.parseIfMatch(bad)).as(bad)
                    .hasMessageContaining("one strong ETag as a GET returned it").hasMessageContaining("was " + bad);
        }
    }
}
