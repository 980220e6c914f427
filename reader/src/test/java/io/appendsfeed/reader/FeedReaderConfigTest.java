package io.appendsfeed.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.model.feed.PartitionId;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FeedReaderConfigTest {

    @Test
    void to_builder_keeps_every_setting() {
        FeedReaderConfig config = FeedReaderConfig.builder("projector", "index", "store")
                .partitions(Set.of(PartitionId.of(1))).leases(false).owner("me").start(StartPosition.beginning())
                .pollInterval(Duration.ofMillis(50)).maxReadEvents(7).maxConcurrentStreams(3)
                .maxBatchEvents(9).loadBodies(false).categories(Set.of("Order")).eventTypes(Set.of("Paid"))
                .retryBackoff(Duration.ofMillis(10), Duration.ofSeconds(1)).parkAfterAttempts(4)
                .commitInterval(Duration.ofSeconds(1)).leaseTimeout(Duration.ofSeconds(9)).parkedPollInterval(Duration.ofSeconds(2))
                .lagLogInterval(Duration.ofSeconds(3)).shutdownTimeout(Duration.ofSeconds(4)).build();

        assertThat(config.toBuilder().build()).isEqualTo(config);
        assertThat(config.toBuilder().start(StartPosition.tail()).build())
                .satisfies(c -> assertThat(c.start()).isEqualTo(StartPosition.tail()))
                .satisfies(c -> assertThat(c.maxBatchEvents()).isEqualTo(9));
    }

    @Test
    void an_invalid_group_says_which_characters_to_use() {
        assertThatThrownBy(() -> FeedReaderConfig.builder("has_underscore", "index", "store").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no '_'");
    }
}
