package io.appendsfeed.indexer.kcl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.indexer.SameTableException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KclSettingsTest {

    private static final String ARN = "arn:aws:dynamodb:eu-west-1:123456789012:table/Events/stream/2026-01-01T00:00:00.000";

    @Test
    void settings_give_a_worker_config_with_defaults_named_after_the_store_table() {
        KclSettings s = KclSettings.from(Map.of("APPENDS_STORE_TABLE", "Events", "APPENDS_INDEX_TABLE", "Index",
                "APPENDS_ON_REJECTED", "record-and-continue")::get);
        KclConfig c = s.config(ARN);
        assertThat(c.applicationName()).isEqualTo("appendsfeed-Events");
        assertThat(c.leaseTable()).isEqualTo("appendsfeed-Events");
        assertThat(c.idleTimeBetweenReads()).isEqualTo(KclConfig.IDLE_TIME_BETWEEN_READS);
        assertThat(c.failoverTime()).isEqualTo(KclConfig.FAILOVER_TIME);
        assertThat(c.onRejected()).isEqualTo(KclConfig.OnRejected.RECORD_AND_CONTINUE);
        assertThat(c.workerId()).isNotBlank();
        assertThat(s.streamArn()).isNull();
        assertThat(SameTableException.tableName(ARN)).isEqualTo("Events");
    }

    @Test
    void bad_settings_are_named_with_what_they_take() {
        assertThatThrownBy(() -> KclSettings.from(Map.of("APPENDS_STORE_TABLE", "E", "APPENDS_INDEX_TABLE", "I",
                "APPENDS_ON_REJECTED", "ignore")::get)).hasMessageContaining("STOP_SHARD or RECORD_AND_CONTINUE");
        assertThatThrownBy(() -> KclConfig.builder("app", "Events").build()).hasMessageContaining("not a DynamoDB stream ARN");
    }
}
