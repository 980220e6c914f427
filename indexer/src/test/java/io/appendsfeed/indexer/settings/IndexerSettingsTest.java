package io.appendsfeed.indexer.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.indexer.IndexerConfig;
import io.appendsfeed.indexer.kcl.KclSettings;
import io.appendsfeed.indexer.lambda.LambdaSettings;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The settings every indexer deployable shares are read in one place, so one environment configures them alike. */
class IndexerSettingsTest {

    private static final Map<String, String> ENV = Map.of("APPENDS_INDEX_TABLE", "index", "APPENDS_STORE_TABLE", "orders",
            "APPENDS_PARTITIONS", "3", "APPENDS_EPOCH_MAX_EVENTS", "5000", "APPENDS_ALLOW_GAPS", "yes",
            "APPENDS_STORE_PREDATES_FEED", "true", "APPENDS_DYNAMODB_ENDPOINT", "http://localhost:8000",
            "APPENDS_CONFLICT_BACKOFF_MS", "10");

    @Test
    void every_deployable_reads_the_shared_settings_alike() {
        IndexerSettings s = IndexerSettings.from(ENV::get);
        assertThat(s.storeTable()).isEqualTo("orders");
        assertThat(s.config().partitions()).isEqualTo(3);
        assertThat(s.config().limits().maxEvents()).isEqualTo(5000);
        assertThat(s.config().allowGaps()).isTrue();
        assertThat(s.config().storePredatesFeed()).isTrue();
        assertThat(s.config().conflictBackoff()).isEqualTo(Duration.ofMillis(10));
        assertThat(IndexerSettings.from(Map.of("APPENDS_INDEX_TABLE", "i")::get).config().conflictBackoff())
                .isEqualTo(IndexerConfig.DEFAULT_CONFLICT_BACKOFF);
        assertThat(s.dynamo().endpoint()).contains(URI.create("http://localhost:8000"));

        assertThat(LambdaSettings.from(ENV::get).config()).isEqualTo(s.config());
        assertThat(KclSettings.from(ENV::get).indexer()).isEqualTo(s.config());
        assertThat(KclSettings.from(ENV::get).dynamo()).isEqualTo(s.dynamo());
    }

    @Test
    void a_missing_or_invalid_shared_setting_is_named() {
        assertThatThrownBy(() -> IndexerSettings.from(Map.<String, String>of()::get)).hasMessageContaining("APPENDS_INDEX_TABLE");
        assertThatThrownBy(() -> IndexerSettings.from(Map.of("APPENDS_INDEX_TABLE", "i", "APPENDS_CONFLICT_BACKOFF_MS", "5000")::get))
                .hasMessageContaining("APPENDS_CONFLICT_BACKOFF_MS").hasMessageContaining("5000");
        assertThatThrownBy(() -> KclSettings.from(Map.of("APPENDS_INDEX_TABLE", "i", "APPENDS_STORE_TABLE", "s",
                "APPENDS_PARTITIONS", "0")::get)).hasMessageContaining("APPENDS_PARTITIONS");
    }
}
