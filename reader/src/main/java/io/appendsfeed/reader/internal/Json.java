package io.appendsfeed.reader.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/** JSON bodies of the reader's own streams (checkpoints, leases, parked streams). */
public final class Json {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {}

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    public static byte[] bytes(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode " + node, e);
        }
    }

    /**
     * @throws IllegalStateException naming the stream and type when the body is not a JSON object
     */
    public static JsonNode parse(String where, String type, byte[] data) {
        try {
            JsonNode node = MAPPER.readTree(data);
            if (node == null || !node.isObject()) {
                throw new IllegalStateException(where + ": " + type + " body is not a JSON object: "
                        + new String(data, StandardCharsets.UTF_8));
            }
            return node;
        } catch (IOException e) {
            throw new IllegalStateException(where + ": " + type + " body is not JSON: "
                    + new String(data, StandardCharsets.UTF_8), e);
        }
    }

    /** @throws IllegalStateException when the field is missing */
    public static String text(String where, JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalStateException(where + ": field '" + field + "' missing or not text in " + o);
        }
        return v.textValue();
    }

    /** @throws IllegalStateException when the field is missing */
    public static long number(String where, JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || !v.canConvertToLong()) {
            throw new IllegalStateException(where + ": field '" + field + "' missing or not an integer in " + o);
        }
        return v.longValue();
    }

    public static Instant instant(String where, JsonNode o, String field) {
        return Instant.parse(text(where, o, field));
    }
}
