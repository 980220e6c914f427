package io.appendsfeed.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.model.feed.Checkpoint;
import io.appendsfeed.reader.StartPosition;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PositionArgumentTest {

    @Test
    void reads_every_documented_form() {
        assertThat(PositionArgument.parse("--to", "1000042")).isEqualTo(StartPosition.at(Checkpoint.of(1, 42)));
        assertThat(PositionArgument.parse("--to", "1/42")).isEqualTo(StartPosition.at(Checkpoint.of(1, 42)));
        assertThat(PositionArgument.parse("--to", "start")).isEqualTo(StartPosition.beginning());
        assertThat(PositionArgument.parse("--to", "TAIL")).isEqualTo(StartPosition.tail());
        Instant t = Instant.parse("2026-11-23T09:00:00Z");
        assertThat(PositionArgument.parse("--to", "time:2026-11-23T09:00:00Z")).isEqualTo(StartPosition.time(t));
        assertThat(PositionArgument.parse("--to", "2026-11-23T09:00:00Z")).isEqualTo(StartPosition.time(t));
    }

    @Test
    void rejects_other_text_naming_the_forms() {
        assertThatThrownBy(() -> PositionArgument.parse("--from", "-3"))
                .isInstanceOfSatisfying(CliException.class, e -> assertThat(e.exit).isEqualTo(FeedCli.USAGE)).hasMessageContaining("--from '-3' is not a position: give a raw checkpoint");
        assertThatThrownBy(() -> PositionArgument.parse("--from", "1/1000000"))
                .isInstanceOfSatisfying(CliException.class, e -> assertThat(e.exit).isEqualTo(FeedCli.USAGE)).hasMessageContaining("EPOCH/OFFSET (1/42)");
        assertThatThrownBy(() -> PositionArgument.parse("--from", "time:2026-11-23"))
                .isInstanceOfSatisfying(CliException.class, e -> assertThat(e.exit).isEqualTo(FeedCli.USAGE)).hasMessageContaining("not an ISO-8601 UTC time");
    }
}
