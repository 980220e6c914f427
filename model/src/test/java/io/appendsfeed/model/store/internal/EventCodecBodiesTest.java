package io.appendsfeed.model.store.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.encoder.Encoder;
import io.appendsfeed.model.StreamName;
import io.appendsfeed.model.store.BodyDecodingException;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class EventCodecBodiesTest {

    private static final StreamName S = StreamName.parse("Body-1");

    @Property(tries = 200)
    void whatever_is_encoded_decodes_to_itself(@ForAll byte[] body, @ForAll boolean compress) {
        EventCodec.Body e = EventCodec.encodeBody(body, compress);

        assertThat(EventCodec.decodeBody(e.bytes(), e.encoding(), S, 0, "e.d")).isEqualTo(body);
        assertThat(e.bytes().length).isLessThanOrEqualTo(body.length);
    }

    @Test
    void deflate_is_used_only_when_it_saves_bytes() {
        byte[] repetitive = "{\"a\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"}".getBytes(StandardCharsets.UTF_8);
        byte[] tiny = "{}".getBytes(StandardCharsets.UTF_8);

        assertThat(EventCodec.encodeBody(repetitive, true).encoding()).isEqualTo(EventCodec.DEFLATE);
        assertThat(EventCodec.encodeBody(repetitive, false).encoding()).isEqualTo(EventCodec.RAW);
        assertThat(EventCodec.encodeBody(tiny, true)).satisfies(e -> {
            assertThat(e.encoding()).isEqualTo(EventCodec.RAW);
            assertThat(e.bytes()).isEqualTo(tiny);
        });
    }

    @Test
    void brotli_from_the_reference_encoder_decodes() throws Exception {
        Brotli4jLoader.ensureAvailability();
        byte[] json = ("{\"list\":[" + "1,2,3,".repeat(100) + "4]}").getBytes(StandardCharsets.UTF_8);

        assertThat(EventCodec.decodeBody(Encoder.compress(json), EventCodec.BROTLI, S, 3, "u.d")).isEqualTo(json);
    }

    @Test
    void garbage_in_any_compressed_encoding_is_a_decoding_error() {
        byte[] garbage = {(byte) 0xff, (byte) 0xfe, 0x00, 0x13, 0x37};

        assertThatThrownBy(() -> EventCodec.decodeBody(garbage, EventCodec.DEFLATE, S, 4, "e.d"))
                .isInstanceOf(BodyDecodingException.class).hasMessageContaining("Body-1").hasMessageContaining("index 4");
        assertThatThrownBy(() -> EventCodec.decodeBody(garbage, EventCodec.BROTLI, S, 4, "e.m"))
                .isInstanceOf(BodyDecodingException.class).hasMessageContaining("e.m");
        assertThatThrownBy(() -> EventCodec.decodeBody(new byte[0], EventCodec.DEFLATE, S, 4, "e.d"))
                .isInstanceOf(BodyDecodingException.class).hasMessageContaining("truncated");
    }
}
