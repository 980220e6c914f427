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

class BodiesTest {

    private static final StreamName S = StreamName.parse("Body-1");

    @Property(tries = 200)
    void whatever_is_encoded_decodes_to_itself(@ForAll byte[] body, @ForAll boolean compress) {
        Bodies.Encoded e = Bodies.encode(body, compress);

        assertThat(Bodies.decode(e.bytes(), e.encoding(), S, 0, "e.d")).isEqualTo(body);
        assertThat(e.bytes().length).isLessThanOrEqualTo(body.length);
    }

    @Test
    void deflate_is_used_only_when_it_saves_bytes() {
        byte[] repetitive = "{\"a\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"}".getBytes(StandardCharsets.UTF_8);
        byte[] tiny = "{}".getBytes(StandardCharsets.UTF_8);

        assertThat(Bodies.encode(repetitive, true).encoding()).isEqualTo(Bodies.DEFLATE);
        assertThat(Bodies.encode(repetitive, false).encoding()).isEqualTo(Bodies.RAW);
        assertThat(Bodies.encode(tiny, true)).satisfies(e -> {
            assertThat(e.encoding()).isEqualTo(Bodies.RAW);
            assertThat(e.bytes()).isEqualTo(tiny);
        });
    }

    @Test
    void brotli_from_the_reference_encoder_decodes() throws Exception {
        Brotli4jLoader.ensureAvailability();
        byte[] json = ("{\"list\":[" + "1,2,3,".repeat(100) + "4]}").getBytes(StandardCharsets.UTF_8);

        assertThat(Bodies.decode(Encoder.compress(json), Bodies.BROTLI, S, 3, "u.d")).isEqualTo(json);
    }

    @Test
    void garbage_in_any_compressed_encoding_is_a_decoding_error() {
        byte[] garbage = {(byte) 0xff, (byte) 0xfe, 0x00, 0x13, 0x37};

        assertThatThrownBy(() -> Bodies.decode(garbage, Bodies.DEFLATE, S, 4, "e.d"))
                .isInstanceOf(BodyDecodingException.class).hasMessageContaining("Body-1").hasMessageContaining("index 4");
        assertThatThrownBy(() -> Bodies.decode(garbage, Bodies.BROTLI, S, 4, "e.m"))
                .isInstanceOf(BodyDecodingException.class).hasMessageContaining("e.m");
        assertThatThrownBy(() -> Bodies.decode(new byte[0], Bodies.DEFLATE, S, 4, "e.d"))
                .isInstanceOf(BodyDecodingException.class).hasMessageContaining("truncated");
    }
}
