package io.appendsfeed.model.store;

import static io.appendsfeed.model.store.StoreFixture.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.encoder.Encoder;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Items as other implementations of the format write them, put by hand. */
@ExtendWith(LocalDynamoExtension.class)
class ForeignItemsTest {

    private static final StreamName STREAM = StreamName.parse("Order-7");

    @BeforeAll
    static void brotli() {
        Brotli4jLoader.ensureAvailability(); // throws with the reason when the native library does not load
    }

    private static AttributeValue s(String v) { return AttributeValue.fromS(v); }
    private static AttributeValue n(long v) { return AttributeValue.fromN(Long.toString(v)); }
    private static AttributeValue bin(byte[] v) { return AttributeValue.fromB(SdkBytes.fromByteArray(v)); }
    private static AttributeValue l(AttributeValue... v) { return AttributeValue.fromL(List.of(v)); }

    static byte[] brotli(String text) throws Exception {
        return Encoder.compress(utf8(text));
    }

    static byte[] deflate(String text) {
        Deflater d = new Deflater(9, true);
        d.setInput(utf8(text));
        d.finish();
        byte[] buf = new byte[4096];
        int len = d.deflate(buf);
        d.end();
        return java.util.Arrays.copyOf(buf, len);
    }

    /** A calf (events 0..1) and a Tip (event 2) without u, b, a, m, x, y; 7-digit +00:00 and Z timestamps. */
    private static void putForeignStream(StoreFixture f) throws Exception {
        f.put(Map.of("p", s(STREAM.value()), "i", n(0), "n", n(2), "c", l(s("Placed"), s("Paid")),
                "e", l(AttributeValue.fromM(Map.of("t", s("2024-05-01T10:00:00.1234567+00:00"), "d", bin(brotli("{\"v\":\"brotli\"}")), "D", n(2))),
                        AttributeValue.fromM(Map.of("t", s("2024-05-01T10:00:01.000Z"), "d", bin(deflate("{\"v\":\"deflate\"}")), "D", n(1))))));
        f.put(Map.of("p", s(STREAM.value()), "i", n(2147483647L), "n", n(3), "etag", s("foreign-etag"), "c", l(s("Shipped")),
                "e", l(AttributeValue.fromM(Map.of("t", s("2024-05-01T10:00:02.7654321+00:00"), "d", bin(utf8("{\"v\":\"raw\"}")))))));
    }

    @Test
    void reads_foreign_items_in_every_encoding_and_timestamp_form(LocalDynamo local) throws Exception {
        StoreFixture f = StoreFixture.fresh(local);
        putForeignStream(f);
        StoreClient client = f.client();

        List<StoredEvent> events = client.readAll(STREAM, Read.forward(0));

        assertThat(events).extracting(StoredEvent::index, StoredEvent::type, StoredEvent::dataText).containsExactly(
                org.assertj.core.groups.Tuple.tuple(0L, "Placed", "{\"v\":\"brotli\"}"),
                org.assertj.core.groups.Tuple.tuple(1L, "Paid", "{\"v\":\"deflate\"}"),
                org.assertj.core.groups.Tuple.tuple(2L, "Shipped", "{\"v\":\"raw\"}"));
        assertThat(events).extracting(StoredEvent::timestamp).containsExactly(
                Instant.parse("2024-05-01T10:00:00.1234567Z"), Instant.parse("2024-05-01T10:00:01Z"), Instant.parse("2024-05-01T10:00:02.7654321Z"));
        assertThat(events).allSatisfy(e -> {
            assertThat(e.meta()).isNull();
            assertThat(e.correlationId()).isNull();
            assertThat(e.causationId()).isNull();
        });
        assertThat(client.readAll(STREAM, Read.backward())).extracting(StoredEvent::index).containsExactly(2L, 1L, 0L);
        Tip tip = client.readTip(STREAM, true).orElseThrow();
        assertThat(tip.unfolds()).isEmpty();
        assertThat(tip.calfBytes()).isZero();
        assertThat(tip.etag()).isEqualTo("foreign-etag");
    }

    @Test
    void appending_to_a_foreign_stream_calves_its_events_unchanged(LocalDynamo local) throws Exception {
        StoreFixture f = StoreFixture.fresh(local);
        putForeignStream(f);
        Map<String, AttributeValue> foreignTip = f.tip(STREAM);
        StoreClient client = f.client(c -> c.tipMaxEvents(1));

        var result = (AppendResult.Written) client.append(STREAM, Expected.version(3), List.of(EventData.json("Delivered", "{}")));

        assertThat(result.calved()).isTrue();
        Map<String, AttributeValue> calf = f.item(STREAM, 2);
        assertThat(calf.get("e")).isEqualTo(foreignTip.get("e")); // the 7-digit timestamp survives
        assertThat(client.readAll(STREAM, Read.forward(1).strongly())).extracting(StoredEvent::type)
                .containsExactly("Paid", "Shipped", "Delivered");
    }

    @Test
    void a_foreign_tip_without_an_etag_is_appended_to_under_version(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        f.put(Map.of("p", s(STREAM.value()), "i", n(2147483647L), "n", n(1), "c", l(s("A")),
                "e", l(AttributeValue.fromM(Map.of("t", s("2024-05-01T10:00:00Z"), "d", bin(utf8("{}")))))));
        StoreClient client = f.client();

        assertThat(client.append(STREAM, Expected.version(0), List.of(EventData.json("B", "{}"))))
                .isEqualTo(new AppendResult.Conflict(1, null));
        assertThat(client.append(STREAM, Expected.version(1), List.of(EventData.json("B", "{}")))).isInstanceOf(AppendResult.Written.class);
        assertThat(client.readAll(STREAM, Read.forward(0))).extracting(StoredEvent::type).containsExactly("A", "B");
    }

    @Test
    void a_corrupt_or_unknown_body_names_stream_index_field_and_encoding(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        f.put(Map.of("p", s(STREAM.value()), "i", n(2147483647L), "n", n(2), "etag", s("x"), "c", l(s("A"), s("B")),
                "e", l(AttributeValue.fromM(Map.of("t", s("2024-05-01T10:00:00Z"), "d", bin(new byte[] {1, 2, 3}), "D", n(1))),
                        AttributeValue.fromM(Map.of("t", s("2024-05-01T10:00:00Z"), "d", bin(utf8("{}")), "m", bin(utf8("{}")), "M", n(7))))));
        StoreClient client = f.client();

        assertThatThrownBy(() -> client.readAll(STREAM, Read.forward(0)))
                .isInstanceOfSatisfying(BodyDecodingException.class, e -> {
                    assertThat(e.stream()).isEqualTo(STREAM);
                    assertThat(e.index()).isZero();
                    assertThat(e.field()).isEqualTo("e.d");
                    assertThat(e.encoding()).isEqualTo(1);
                }).hasMessageContaining("Order-7").hasMessageContaining("deflate");
        assertThatThrownBy(() -> client.readAll(STREAM, Read.forward(1)))
                .isInstanceOfSatisfying(BodyDecodingException.class, e -> {
                    assertThat(e.index()).isEqualTo(1);
                    assertThat(e.field()).isEqualTo("e.m");
                    assertThat(e.encoding()).isEqualTo(7);
                }).hasMessageContaining("unknown encoding");
        assertThat(client.readAll(STREAM, Read.forward(0).typesOnly())).extracting(StoredEvent::type).containsExactly("A", "B");
    }

    @Test
    void corrupt_brotli_is_reported_not_crashed_on(LocalDynamo local) throws Exception {
        StoreFixture f = StoreFixture.fresh(local);
        byte[] good = brotli("{\"v\":\"" + "x".repeat(500) + "\"}");
        byte[] truncated = java.util.Arrays.copyOf(good, good.length / 2);
        f.put(Map.of("p", s(STREAM.value()), "i", n(2147483647L), "n", n(1), "etag", s("x"), "c", l(s("A")),
                "e", l(AttributeValue.fromM(Map.of("t", s("2024-05-01T10:00:00Z"), "d", bin(truncated), "D", n(2))))));

        assertThatThrownBy(() -> f.client().readTip(STREAM, false))
                .isInstanceOfSatisfying(BodyDecodingException.class, e -> assertThat(e.encoding()).isEqualTo(2))
                .hasMessageContaining("Brotli");
    }

    @Test
    void an_item_whose_events_and_types_disagree_is_a_format_error(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        f.put(Map.of("p", s(STREAM.value()), "i", n(2147483647L), "n", n(2), "etag", s("x"), "c", l(s("A"), s("B")),
                "e", l(AttributeValue.fromM(Map.of("t", s("2024-05-01T10:00:00Z"), "d", bin(utf8("{}")))))));

        assertThatThrownBy(() -> f.client().readAll(STREAM, Read.backward()))
                .isInstanceOfSatisfying(StoreFormatException.class, e -> assertThat(e.rangeKey()).isEqualTo(2147483647L))
                .hasMessageContaining("1 events in 'e' but 2 types in 'c'");
    }
}
