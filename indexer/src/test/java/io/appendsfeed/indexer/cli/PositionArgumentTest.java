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
        assertThat(FeedCommand.position("--to", "1000042")).isEqualTo(StartPosition.at(Checkpoint.of(1, 42)));
        assertThat(FeedCommand.position("--to", "1/42")).isEqualTo(StartPosition.at(Checkpoint.of(1, 42)));
        assertThat(FeedCommand.position("--to", "start")).isEqualTo(StartPosition.beginning());
        assertThat(FeedCommand.position("--to", "TAIL")).isEqualTo(StartPosition.tail());
        Instant t = Instant.parse("2026-11-23T09:00:00Z");
        assertThat(FeedCommand.position("--to", "time:2026-11-23T09:00:00Z")).isEqualTo(StartPosition.time(t));
        assertThat(FeedCommand.position("--to", "2026-11-23T09:00:00Z")).isEqualTo(StartPosition.time(t));
    }

    @Test
    void rejects_other_text_naming_the_forms() {
        assertThatThrownBy(() -> FeedCommand.position("--from", "-3"))
                .isInstanceOfSatisfying(CliException.class, e -> assertThat(e.exit).isEqualTo(FeedCli.USAGE)).hasMessageContaining("--from '-3' is not a position: give a raw checkpoint");
        assertThatThrownBy(() -> FeedCommand.position("--from", "1/1000000"))
                .isInstanceOfSatisfying(CliException.class, e -> assertThat(e.exit).isEqualTo(FeedCli.USAGE)).hasMessageContaining("EPOCH/OFFSET (1/42)");
        assertThatThrownBy(() -> FeedCommand.position("--from", "time:2026-11-23"))
                .isInstanceOfSatisfying(CliException.class, e -> assertThat(e.exit).isEqualTo(FeedCli.USAGE)).hasMessageContaining("not an ISO-8601 UTC time");
    }
}
