package io.appendsfeed.reader.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.reader.FeedReaderConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReactorSettingsTest {

    @Test
    void defaults_and_a_config_for_the_deployed_group_and_tables() {
        ReactorSettings s = ReactorSettings.from(Map.of(ReactorSettings.GROUP, "projector", ReactorSettings.INDEX_TABLE, "orders-index",
                ReactorSettings.STORE_TABLE, "orders-store", ReactorSettings.REGION, "eu-west-1")::get);
        assertThat(s.margin()).isEqualTo(Duration.ofSeconds(5));
        assertThat(s.dynamo().endpoint()).isEmpty();
        FeedReaderConfig config = s.configBuilder().maxConcurrentStreams(4).build();
        assertThat(config.group()).isEqualTo("projector");
        assertThat(config.indexTable()).isEqualTo("orders-index");
        assertThat(config.storeTable()).isEqualTo("orders-store");
        assertThat(ReactorSettings.from(Map.of(ReactorSettings.MARGIN_MILLIS, "1_500", ReactorSettings.ENDPOINT, "http://localhost:8000")::get))
                .satisfies(x -> {
                    assertThat(x.margin()).isEqualTo(Duration.ofMillis(1500));
                    assertThat(x.dynamo().endpoint()).isPresent();
                });
    }

    @Test
    void what_is_missing_or_wrong_is_named() {
        assertThatThrownBy(() -> ReactorSettings.from(Map.of(ReactorSettings.INDEX_TABLE, "i")::get).configBuilder())
                .hasMessageContaining("not set: APPENDS_GROUP APPENDS_STORE_TABLE");
        assertThatThrownBy(() -> ReactorSettings.from(Map.of(ReactorSettings.MARGIN_MILLIS, "5s")::get))
                .hasMessageContaining("APPENDS_REACTOR_MARGIN_MILLIS is '5s': give a positive number of milliseconds");
        assertThatThrownBy(() -> ReactorSettings.from(Map.of(ReactorSettings.MARGIN_MILLIS, "0")::get))
                .hasMessageContaining("positive number");
        assertThatThrownBy(() -> ReactorSettings.from(Map.of(ReactorSettings.GROUP, "my_group")::get))
                .hasMessageContaining("APPENDS_GROUP: consumer group 'my_group' is not valid");
    }
}
