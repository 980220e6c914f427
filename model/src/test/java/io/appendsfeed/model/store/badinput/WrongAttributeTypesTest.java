package io.appendsfeed.model.store.badinput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.AppendResult;
import io.appendsfeed.model.store.BodyDecodingException;
import io.appendsfeed.model.store.EventData;
import io.appendsfeed.model.store.Expected;
import io.appendsfeed.model.store.Read;
import io.appendsfeed.model.store.StoreClient;
import io.appendsfeed.model.store.StoreConfig;
import io.appendsfeed.model.store.StoreFormatException;
import io.appendsfeed.model.store.StoreTables;
import io.appendsfeed.model.store.StoredEvent;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * Items damaged or written by something else, with attributes missing or of the wrong DynamoDB
 * type: every read and every append refuses them with a {@link StoreFormatException} that names the
 * item and the attribute, never a bare parsing error and never a silent misreading.
 */
@ExtendWith(LocalDynamoExtension.class)
class WrongAttributeTypesTest {

    static final StreamName STREAM = StreamName.parse("Order-1");

    static AttributeValue s(String v) { return AttributeValue.fromS(v); }
    static AttributeValue n(String v) { return AttributeValue.fromN(v); }
    static AttributeValue l(AttributeValue... v) { return AttributeValue.fromL(List.of(v)); }
    static AttributeValue json(String text) { return AttributeValue.fromB(SdkBytes.fromString(text, StandardCharsets.UTF_8)); }

    /** A well-formed Tip of one event, {@code A} at index 0, with {@code changes} applied (a null value removes the attribute). */
    static Map<String, AttributeValue> tip(Map<String, AttributeValue> changes) {
        Map<String, AttributeValue> event = new HashMap<>(Map.of("t", s("2024-05-01T10:00:00.000Z"), "d", json("{\"v\":1}")));
        Map<String, AttributeValue> item = new HashMap<>(Map.of("p", s(STREAM.value()), "i", n("2147483647"), "n", n("1"),
                "a", n("1"), "etag", s("e1"), "c", l(s("A")), "u", l()));
        item.put("e", l(AttributeValue.fromM(event)));
        changes.forEach((k, v) -> {
            if (v == null) item.remove(k); else item.put(k, v);
        });
        return item;
    }

    static StoreClient storeWith(LocalDynamo local, Map<String, AttributeValue> item) {
        String table = local.freshTableName("badinput");
        StoreTables.ensure(local.dynamo(), table, StreamViewType.NEW_IMAGE);
        local.dynamo().putItem(b -> b.tableName(table).item(item));
        return new StoreClient(local.dynamo(), StoreConfig.builder(table).build());
    }

    static void refusedEverywhere(StoreClient store, String... says) {
        assertThatThrownBy(() -> store.readTip(STREAM, true)).isInstanceOf(StoreFormatException.class)
                .hasMessageContaining("p=Order-1, i=2147483647").hasMessageContainingAll(says);
        assertThatThrownBy(() -> store.readAll(STREAM, Read.forward(0))).isInstanceOf(StoreFormatException.class)
                .hasMessageContainingAll(says);
        assertThatThrownBy(() -> store.readAll(STREAM, Read.forward(0).typesOnly())).isInstanceOf(StoreFormatException.class)
                .hasMessageContainingAll(says);
        assertThatThrownBy(() -> store.append(STREAM, Expected.version(1), List.of(EventData.json("B", "{}"))))
                .isInstanceOf(StoreFormatException.class).hasMessageContainingAll(says);
    }

    @Test
    void the_well_formed_item_these_tests_damage_reads_and_appends(LocalDynamo local) {
        StoreClient store = storeWith(local, tip(Map.of()));
        assertThat(store.readAll(STREAM, Read.forward(0))).singleElement()
                .satisfies(e -> assertThat(e.dataText()).isEqualTo("{\"v\":1}"));
        assertThat(store.append(STREAM, Expected.version(1), List.of(EventData.json("B", "{}")))).isInstanceOf(AppendResult.Written.class);
    }

    @Test
    void a_tip_without_n_is_refused_naming_n(LocalDynamo local) {
        refusedEverywhere(storeWith(local, tip(new HashMap<>(java.util.Collections.singletonMap("n", null)))), "attribute n is missing");
    }

    @Test
    void n_of_the_wrong_type_or_not_an_integer_is_refused_naming_n(LocalDynamo local) {
        refusedEverywhere(storeWith(local, tip(Map.of("n", s("1")))), "attribute n is not a number (N)");
        refusedEverywhere(storeWith(local, tip(Map.of("n", n("1.5")))), "attribute n is not an integer: 1.5");
    }

    @Test
    void calf_bytes_that_are_not_an_integer_are_refused_naming_b(LocalDynamo local) {
        for (AttributeValue bad : List.of(s("12"), n("1.5"))) {
            StoreClient store = storeWith(local, tip(Map.of("b", bad)));
            assertThatThrownBy(() -> store.readTip(STREAM, true)).isInstanceOf(StoreFormatException.class)
                    .hasMessageContaining("p=Order-1, i=2147483647").hasMessageContaining("attribute b is not");
            assertThatThrownBy(() -> store.append(STREAM, Expected.version(1), List.of(EventData.json("B", "{}"))))
                    .isInstanceOf(StoreFormatException.class).hasMessageContaining("attribute b is not");
        }
    }

    @Test
    void types_that_are_not_a_list_are_refused_not_read_as_no_events(LocalDynamo local) {
        refusedEverywhere(storeWith(local, tip(Map.of("c", s("A")))), "attribute c is not a list (L)");
        refusedEverywhere(storeWith(local, tip(Map.of("c", AttributeValue.fromSs(List.of("A"))))), "attribute c is not a list (L)");
    }

    @Test
    void events_that_are_not_a_list_are_refused(LocalDynamo local) {
        StoreClient store = storeWith(local, tip(Map.of("e", s("A"))));
        assertThatThrownBy(() -> store.readAll(STREAM, Read.forward(0))).isInstanceOf(StoreFormatException.class)
                .hasMessageContaining("attribute e is not a list (L)");
    }

    @Test
    void a_body_encoding_that_is_not_a_number_is_refused_not_read_as_raw(LocalDynamo local) {
        Map<String, AttributeValue> event = Map.of("t", s("2024-05-01T10:00:00.000Z"), "d", json("{\"v\":1}"), "D", s("1"));
        StoreClient store = storeWith(local, tip(Map.of("e", l(AttributeValue.fromM(event)))));
        assertThatThrownBy(() -> store.readAll(STREAM, Read.forward(0))).isInstanceOf(BodyDecodingException.class)
                .hasMessageContaining("e.d of Order-1 at index 0").hasMessageContaining("encoding 'D' is not a number (N)");
        assertThat(store.readAll(STREAM, Read.forward(0).typesOnly())).as("the types are still readable")
                .extracting(StoredEvent::type).containsExactly("A");
    }

    @Test
    void an_event_without_a_timestamp_or_with_a_bad_one_is_refused_naming_t(LocalDynamo local) {
        Map<String, AttributeValue> noT = Map.of("d", json("{}"));
        assertThatThrownBy(() -> storeWith(local, tip(Map.of("e", l(AttributeValue.fromM(noT))))).readAll(STREAM, Read.forward(0)))
                .isInstanceOf(StoreFormatException.class).hasMessageContaining("timestamp 't'");
        Map<String, AttributeValue> badT = Map.of("t", s("yesterday"), "d", json("{}"));
        assertThatThrownBy(() -> storeWith(local, tip(Map.of("e", l(AttributeValue.fromM(badT))))).readAll(STREAM, Read.forward(0)))
                .isInstanceOf(StoreFormatException.class).hasMessageContaining("'yesterday' is not ISO-8601");
    }

    @Test
    void an_event_that_is_not_a_map_is_refused(LocalDynamo local) {
        assertThatThrownBy(() -> storeWith(local, tip(Map.of("e", l(s("A"))))).readAll(STREAM, Read.forward(0)))
                .isInstanceOf(StoreFormatException.class).hasMessageContaining("not a map");
    }
}
