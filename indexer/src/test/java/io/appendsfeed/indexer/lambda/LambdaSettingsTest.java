package io.appendsfeed.indexer.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.indexer.IndexerConfig;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LambdaSettingsTest {

    @Test
    void defaults_apply_when_only_the_table_is_set() {
        LambdaSettings s = LambdaSettings.from(Map.of("APPENDS_INDEX_TABLE", "index")::get);
        assertThat(s.config().indexTable()).isEqualTo("index");
        assertThat(s.config().partitions()).as("unset: as the index records").isEqualTo(IndexerConfig.PARTITIONS_AS_RECORDED);
        assertThat(s.config().limits().maxEvents()).isEqualTo(999_999);
        assertThat(s.config().allowGaps()).isFalse();
        assertThat(s.dynamo().endpoint()).isEmpty();
    }

    @Test
    void every_setting_is_read() {
        LambdaSettings s = LambdaSettings.from(Map.of("APPENDS_INDEX_TABLE", "index", "APPENDS_PARTITIONS", "4",
                "APPENDS_EPOCH_MAX_EVENTS", "1000", "APPENDS_EPOCH_MAX_BYTES", "65536", "APPENDS_EPOCH_MAX_STREAMS", "50",
                "APPENDS_ALLOW_GAPS", "true", "APPENDS_DYNAMODB_ENDPOINT", "http://localhost:8000", "AWS_REGION", "eu-west-1")::get);
        assertThat(s.config().partitions()).isEqualTo(4);
        assertThat(s.config().limits().maxEvents()).isEqualTo(1000);
        assertThat(s.config().limits().maxBytes()).isEqualTo(65536);
        assertThat(s.config().limits().maxStreams()).isEqualTo(50);
        assertThat(s.config().allowGaps()).isTrue();
        assertThat(s.dynamo().endpoint()).contains(URI.create("http://localhost:8000"));
    }


    @Test
    void missing_table_and_bad_values_name_the_variable() {
        assertThatThrownBy(() -> LambdaSettings.from(Map.<String, String>of()::get)).hasMessageContaining("APPENDS_INDEX_TABLE");
        assertThatThrownBy(() -> LambdaSettings.from(Map.of("APPENDS_INDEX_TABLE", "i", "APPENDS_PARTITIONS", "two")::get))
                .hasMessageContaining("APPENDS_PARTITIONS").hasMessageContaining("two");
        assertThatThrownBy(() -> LambdaSettings.from(Map.of("APPENDS_INDEX_TABLE", "i", "APPENDS_EPOCH_MAX_EVENTS", "1000000")::get))
                .hasMessageContaining("maxEvents");
        assertThatThrownBy(() -> LambdaSettings.from(Map.of("APPENDS_INDEX_TABLE", "i", "APPENDS_ALLOW_GAPS", "maybe")::get))
                .hasMessageContaining("APPENDS_ALLOW_GAPS");
    }

    @Test
    void the_store_table_is_read_and_may_not_be_the_index_table() {
        assertThat(LambdaSettings.from(Map.of("APPENDS_INDEX_TABLE", "index", "APPENDS_STORE_TABLE", "orders")::get).storeTable())
                .isEqualTo("orders");
        assertThatThrownBy(() -> LambdaSettings.from(Map.of("APPENDS_INDEX_TABLE", "orders", "APPENDS_STORE_TABLE", "orders")::get))
                .isInstanceOf(io.appendsfeed.indexer.SameTableException.class)
                .hasMessageContaining("the store table 'orders' and the index table 'orders' are the same table");
        // an ARN of the same table is the same table
        assertThatThrownBy(() -> LambdaSettings.from(Map.of("APPENDS_INDEX_TABLE", "orders",
                "APPENDS_STORE_TABLE", "arn:aws:dynamodb:eu-west-1:123456789012:table/orders")::get))
                .isInstanceOf(io.appendsfeed.indexer.SameTableException.class);
    }
}
