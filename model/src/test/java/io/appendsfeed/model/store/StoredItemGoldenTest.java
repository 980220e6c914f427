package io.appendsfeed.model.store;

import static io.appendsfeed.model.store.StoreFixture.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.internal.ItemSize;
import io.appendsfeed.model.testing.LocalDynamo;
import io.appendsfeed.model.testing.LocalDynamoExtension;
import java.io.ByteArrayOutputStream;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Pins the stored items field for field: this is the format other implementations read. */
@ExtendWith(LocalDynamoExtension.class)
class StoredItemGoldenTest {

    private static final Instant NOW = Instant.parse("2024-05-01T10:00:00.123456Z");
    private static final StreamName STREAM = StreamName.parse("Account-42");

    private static AttributeValue s(String v) { return AttributeValue.fromS(v); }
    private static AttributeValue n(long v) { return AttributeValue.fromN(Long.toString(v)); }
    private static AttributeValue b(String v) { return AttributeValue.fromB(SdkBytes.fromByteArray(utf8(v))); }
    private static AttributeValue l(AttributeValue... v) { return AttributeValue.fromL(List.of(v)); }

    private static AttributeValue m(Object... kv) {
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        for (int k = 0; k < kv.length; k += 2) {
            m.put((String) kv[k], (AttributeValue) kv[k + 1]);
        }
        return AttributeValue.fromM(m);
    }

    private static StoreClient client(StoreFixture f, int tipMaxEvents) {
        return f.client(c -> c.clock(Clock.fixed(NOW, ZoneOffset.UTC)).tipMaxEvents(tipMaxEvents));
    }

    @Test
    void tip_of_a_new_stream_holds_every_event_field_and_omits_zero_encodings(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        EventData full = new EventData("Deposited", utf8("{\"amount\":5}"), utf8("{\"user\":\"u1\"}"), "corr-1", "cause-1",
                Instant.parse("2024-04-30T08:07:06.987654321Z"));
        EventData bare = EventData.json("Withdrawn", "{}");

        var result = client(f, Integer.MAX_VALUE).append(STREAM, Expected.noStream(), List.of(full, bare));

        Map<String, AttributeValue> tip = f.tip(STREAM);
        assertThat(result).isInstanceOf(AppendResult.Written.class);
        String etag = tip.get("etag").s();
        assertThat(etag).matches("[0-9a-f]{32}").isEqualTo(((AppendResult.Written) result).etag());
        assertThat(tip).isEqualTo(Map.of(
                "p", s("Account-42"), "i", n(2147483647L), "n", n(2), "a", n(2), "b", n(0), "etag", s(etag),
                "c", l(s("Deposited"), s("Withdrawn")),
                "e", l(m("t", s("2024-04-30T08:07:06.987Z"), "d", b("{\"amount\":5}"), "m", b("{\"user\":\"u1\"}"),
                                "x", s("corr-1"), "y", s("cause-1")),
                        m("t", s("2024-05-01T10:00:00.123Z"), "d", b("{}"))),
                "u", l()));
    }

    @Test
    void appending_extends_the_tip_and_replaces_etag_a_and_unfolds(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient client = client(f, Integer.MAX_VALUE);
        client.append(STREAM, Expected.noStream(), List.of(EventData.json("A", "{}")), List.of(Unfold.json("S", "{\"v\":1}")));
        String before = f.tip(STREAM).get("etag").s();

        client.append(STREAM, Expected.version(1), List.of(EventData.json("B", "{}")), List.of(Unfold.json("S", "{\"v\":2}")));

        Map<String, AttributeValue> tip = f.tip(STREAM);
        String etag = tip.get("etag").s();
        assertThat(etag).isNotEqualTo(before).matches("[0-9a-f]{32}");
        assertThat(tip).isEqualTo(Map.of(
                "p", s("Account-42"), "i", n(2147483647L), "n", n(2), "a", n(1), "b", n(0), "etag", s(etag),
                "c", l(s("A"), s("B")),
                "e", l(m("t", s("2024-05-01T10:00:00.123Z"), "d", b("{}")), m("t", s("2024-05-01T10:00:00.123Z"), "d", b("{}"))),
                "u", l(m("i", n(2), "t", s("2024-05-01T10:00:00.123Z"), "c", s("S"), "d", b("{\"v\":2}")))));
    }

    @Test
    void calving_moves_the_old_events_to_a_calf_and_keeps_only_the_new_ones_in_the_tip(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        StoreClient client = client(f, 2);
        client.append(STREAM, Expected.noStream(), List.of(EventData.json("A", "{\"a\":1}"), EventData.json("B", "{}")));
        Map<String, AttributeValue> oldTip = f.tip(STREAM);

        var result = client.append(STREAM, Expected.version(2), List.of(EventData.json("C", "{}")), List.of(Unfold.json("S", "{}")));

        assertThat(((AppendResult.Written) result).calved()).isTrue();
        Map<String, AttributeValue> calf = f.item(STREAM, 0);
        assertThat(calf).isEqualTo(Map.of("p", s("Account-42"), "i", n(0), "n", n(2),
                "c", oldTip.get("c"), "e", oldTip.get("e"), "u", l()));
        Map<String, AttributeValue> tip = f.tip(STREAM);
        assertThat(tip).isEqualTo(Map.of(
                "p", s("Account-42"), "i", n(2147483647L), "n", n(3), "a", n(1), "b", n(ItemSize.item(calf)),
                "etag", tip.get("etag"), "c", l(s("C")), "e", l(m("t", s("2024-05-01T10:00:00.123Z"), "d", b("{}"))),
                "u", l(m("i", n(3), "t", s("2024-05-01T10:00:00.123Z"), "c", s("S"), "d", b("{}")))));
        assertThat(f.items(STREAM)).hasSize(2);
    }

    @Test
    void unfold_only_write_creates_a_tip_with_no_events_and_a_zero(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);

        client(f, Integer.MAX_VALUE).writeUnfolds(STREAM, Expected.noStream(),
                List.of(new Unfold("Snap", utf8("{\"s\":1}"), utf8("{\"m\":1}"))));

        Map<String, AttributeValue> tip = f.tip(STREAM);
        assertThat(tip).isEqualTo(Map.of(
                "p", s("Account-42"), "i", n(2147483647L), "n", n(0), "a", n(0), "b", n(0), "etag", tip.get("etag"),
                "c", l(), "e", l(),
                "u", l(m("i", n(0), "t", s("2024-05-01T10:00:00.123Z"), "c", s("Snap"), "d", b("{\"s\":1}"), "m", b("{\"m\":1}")))));
    }

    @Test
    void compressible_bodies_are_stored_as_raw_deflate_with_encoding_1(LocalDynamo local) throws Exception {
        StoreFixture f = StoreFixture.fresh(local);
        String data = "{\"items\":[" + "\"repeated-value\",".repeat(50) + "\"end\"]}";
        String meta = "{\"trace\":\"" + "abc".repeat(40) + "\"}";

        client(f, Integer.MAX_VALUE).append(STREAM, Expected.noStream(), List.of(EventData.json("Big", data).withMeta(utf8(meta))));

        Map<String, AttributeValue> event = f.tip(STREAM).get("e").l().get(0).m();
        assertThat(event.keySet()).containsExactlyInAnyOrder("t", "d", "D", "m", "M");
        assertThat(event.get("D")).isEqualTo(n(1));
        assertThat(event.get("M")).isEqualTo(n(1));
        assertThat(event.get("d").b().asByteArray().length).isLessThan(data.length());
        assertThat(new String(inflate(event.get("d").b().asByteArray()), "UTF-8")).isEqualTo(data);
        assertThat(new String(inflate(event.get("m").b().asByteArray()), "UTF-8")).isEqualTo(meta);
    }

    @Test
    void compression_off_stores_every_body_raw(LocalDynamo local) {
        StoreFixture f = StoreFixture.fresh(local);
        String data = "{\"items\":[" + "\"repeated-value\",".repeat(50) + "\"end\"]}";

        f.client(c -> c.compress(false)).append(STREAM, Expected.noStream(), List.of(EventData.json("Big", data)));

        Map<String, AttributeValue> event = f.tip(STREAM).get("e").l().get(0).m();
        assertThat(event).doesNotContainKey("D");
        assertThat(event.get("d")).isEqualTo(b(data));
    }

    /** Independent of the client's decoder: RFC 1951 raw deflate, as the JDK reads it. */
    static byte[] inflate(byte[] raw) throws Exception {
        Inflater inflater = new Inflater(true);
        inflater.setInput(raw);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[1024];
        while (!inflater.finished()) {
            out.write(buf, 0, inflater.inflate(buf));
        }
        inflater.end();
        return out.toByteArray();
    }
}
