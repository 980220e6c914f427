package io.appendsfeed.reader.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.function.Predicate;

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

    /** @throws IllegalStateException naming the stream and type when the body is not a JSON object */
    public static JsonNode parse(String where, String type, byte[] data) {
        JsonNode node;
        try {
            node = MAPPER.readTree(data);
        } catch (IOException e) {
            throw new IllegalStateException(where + ": " + type + " body is not JSON: " + new String(data, StandardCharsets.UTF_8), e);
        }
        if (node == null || !node.isObject()) {
            throw new IllegalStateException(where + ": " + type + " body is not a JSON object: " + new String(data, StandardCharsets.UTF_8));
        }
        return node;
    }

    /** @throws IllegalStateException when the field is missing */
    public static String text(String where, JsonNode o, String field) {
        return field(where, o, field, JsonNode::isTextual, "text").textValue();
    }

    /** @throws IllegalStateException when the field is missing */
    public static long number(String where, JsonNode o, String field) {
        return field(where, o, field, JsonNode::canConvertToLong, "an integer").longValue();
    }

    private static JsonNode field(String where, JsonNode o, String field, Predicate<JsonNode> fits, String what) {
        JsonNode v = o.get(field);
        if (v == null || !fits.test(v)) {
            throw new IllegalStateException(where + ": field '" + field + "' missing or not " + what + " in " + o);
        }
        return v;
    }

    public static Instant instant(String where, JsonNode o, String field) {
        return Instant.parse(text(where, o, field));
    }
}
