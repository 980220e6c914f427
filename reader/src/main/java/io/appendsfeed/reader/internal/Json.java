package io.appendsfeed.reader.internal;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * JSON bodies of the reader's own streams (checkpoints, leases, parked streams, groups), bound to records whose
 * components name the fields in the order they are written: those records define the storage format.
 */
public final class Json {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES) // every field is written: one missing is an error
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES) // a newer writer's fields are ignored
            .build();

    private Json() {}

    public static byte[] bytes(Object body) {
        try {
            return MAPPER.writeValueAsBytes(body);
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode " + body, e);
        }
    }

    /** @throws IllegalStateException naming the stream and type when the body is not a JSON object with every field of {@code as} */
    public static <T> T parse(String where, String type, byte[] data, Class<T> as) {
        try {
            return MAPPER.readValue(data, as);
        } catch (IOException e) {
            throw new IllegalStateException(where + ": " + type + " body is not what this version reads: "
                    + new String(data, StandardCharsets.UTF_8), e);
        }
    }
}
