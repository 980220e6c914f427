package io.appendsfeed.indexer.backfill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BackfillSettingsTest {

    @Test
    void variables_are_read_and_defaults_fill_the_rest() {
        Map<String, String> env = Map.of("APPENDS_STORE_TABLE", "Events", "APPENDS_INDEX_TABLE", "Index",
                "APPENDS_SEGMENTS", "8", "APPENDS_MAX_ITEMS_PER_SECOND", "500", "APPENDS_DYNAMODB_ENDPOINT", "http://localhost:8000");
        BackfillSettings s = BackfillSettings.from(env::get);
        assertThat(s.backfill().storeTable()).isEqualTo("Events");
        assertThat(s.backfill().segments()).isEqualTo(8);
        assertThat(s.backfill().maxItemsPerSecond()).isEqualTo(500);
        assertThat(s.backfill().pageSize()).isEqualTo(BackfillConfig.DEFAULT_PAGE_SIZE);
        assertThat(s.indexer().indexTable()).isEqualTo("Index");
        assertThat(s.dynamo().endpoint()).contains(URI.create("http://localhost:8000"));
    }

    @Test
    void a_missing_or_bad_setting_is_named_with_what_it_takes() {
        assertThatThrownBy(() -> BackfillSettings.from(Map.of("APPENDS_INDEX_TABLE", "Index")::get))
                .hasMessageContaining("APPENDS_STORE_TABLE is not set").hasMessageContaining("--store-table");
        assertThatThrownBy(() -> BackfillSettings.from(Map.of("APPENDS_INDEX_TABLE", "I", "APPENDS_STORE_TABLE", "S",
                "APPENDS_SEGMENTS", "many")::get)).hasMessageContaining("APPENDS_SEGMENTS is 'many'");
    }
}
