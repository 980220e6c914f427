package io.appendsfeed.model.store.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class ItemSizeTest {

    @Test
    void counts_names_values_and_container_overheads_per_dynamodb_rules() {
        Map<String, AttributeValue> item = Map.of(
                "p", AttributeValue.fromS("Ab-é"),                                         // 1 + 5
                "n", AttributeValue.fromN("12345"),                                       // 1 + (3 + 2)
                "d", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[10])),          // 1 + 10
                "c", AttributeValue.fromL(List.of(AttributeValue.fromS("xy"))),           // 1 + 3 + (1 + 2)
                "e", AttributeValue.fromM(Map.of("t", AttributeValue.fromS("abc"))));     // 1 + 3 + (1 + 1 + 3)

        assertThat(ItemSize.item(item)).isEqualTo(6 + 6 + 11 + 7 + 9);
        assertThat(ItemSize.item(Map.of("u", AttributeValue.fromL(List.of())))).isEqualTo(1 + 3);
    }

    @Test
    void numbers_are_counted_generously() {
        assertThat(ItemSize.number("2147483647")).isEqualTo(7);
        assertThat(ItemSize.number("-1")).isEqualTo(3);
        assertThat(ItemSize.number("0")).isEqualTo(3);
    }
}
